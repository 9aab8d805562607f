/** 添加到桌面 (快捷访问): the browser's install prompt where it offers one, and the service worker that makes the site installable. */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export type InstallOutcome = 'accepted' | 'dismissed' | 'manual' | 'installed';

let deferred: InstallPromptEvent | null = null;

/** Keeps the browser's install prompt for the 立即添加 button instead of letting it show on its own. */
export function watchInstall(): void {
  addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    deferred = e as InstallPromptEvent;
  });
  addEventListener('appinstalled', () => {
    deferred = null;
  });
}

/** Whether the page runs as the installed app. */
export function isInstalled(): boolean {
  return (
    matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true
  );
}

/** Shows the install prompt; 'manual' when the browser offers none (Safari, Firefox, or not yet eligible). */
export async function install(): Promise<InstallOutcome> {
  if (isInstalled()) return 'installed';
  const prompt = deferred;
  if (!prompt) return 'manual';
  deferred = null;
  await prompt.prompt();
  return (await prompt.userChoice).outcome;
}

/** Registers /sw.js once the page has loaded, so it never competes with the first screen. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
