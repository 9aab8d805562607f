/** The 通用设置 page: each switch saves on change (POST /api/settings/privacy or /notify); the default page is a cookie; 退出所有设备 asks first. */
import { getDefaultPage, setDefaultPage } from './default-page.ts';

async function notice(message: string, type: 'success' | 'error' = 'success'): Promise<void> {
  const { toast } = await import('../../stores/toast.ts');
  toast(message, { type });
}

export function initSettingsPage(root: HTMLElement): void {
  const saved = root.dataset.saved ?? '';

  for (const input of root.querySelectorAll<HTMLInputElement>('input[data-setting]')) {
    input.addEventListener('change', async () => {
      const on = input.checked;
      input.disabled = true;
      try {
        const { apiPost } = await import('../../stores/api.ts');
        await apiPost(`/settings/${input.dataset.setting}`, { [input.name]: on ? 1 : 0 }, { quiet: true });
        await notice(saved);
      } catch (failure) {
        input.checked = !on;
        await notice((failure as Error).message, 'error');
      } finally {
        input.disabled = false;
        input.focus();
      }
    });
  }

  const everywhere = root.querySelector<HTMLButtonElement>('[data-logout-everywhere]');
  everywhere?.addEventListener('click', async () => {
    if (!confirm(everywhere.dataset.confirm ?? '')) return;
    everywhere.disabled = true;
    try {
      const { logoutEverywhere } = await import('../../stores/user.ts');
      await logoutEverywhere();
    } catch (failure) {
      everywhere.disabled = false;
      await notice((failure as Error).message, 'error');
    }
  });

  const current = getDefaultPage();
  for (const radio of root.querySelectorAll<HTMLInputElement>('input[name="default-page"]')) {
    radio.checked = radio.value === current;
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      setDefaultPage(radio.value);
      void notice(saved);
    });
  }
}
