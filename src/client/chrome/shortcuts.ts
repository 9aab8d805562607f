/**
 * 设置 → 快捷键: opens the shortcuts dialog of the player's owners (src/islands/ShortcutsDialog.tsx, store
 * `$shortcutsOpen`). A page with a player wakes its island, which already mounts the dialog; any other page mounts
 * the dialog itself here. Either way React loads only now, on this click, never with the page.
 */
import { $shortcutsOpen, openShortcuts } from '../../stores/player.ts';

let mounted: Promise<void> | undefined;

function hasPlayer(): boolean {
  return !!document.querySelector('astro-island[component-export="Feed"], astro-island[component-export="Player"]');
}

async function mount(): Promise<void> {
  const [{ createElement }, { createRoot }, { ShortcutsDialog }] = await Promise.all([
    import('react'),
    import('react-dom/client'),
    import('../../islands/ShortcutsDialog.tsx'),
  ]);
  const host = document.createElement('div');
  host.id = 'shortcuts-host';
  document.body.append(host);
  createRoot(host).render(createElement(ShortcutsDialog));
}

/** Opens the 快捷键 dialog; when it closes, focus goes back to `returnTo` (the 设置 button). */
export async function openShortcutsDialog(returnTo?: HTMLElement | null): Promise<void> {
  if (hasPlayer()) dispatchEvent(new Event('sy:hydrate-player'));
  else await (mounted ??= mount());
  openShortcuts();
  const stop = $shortcutsOpen.listen((open) => {
    if (open) return;
    stop();
    returnTo?.focus({ preventScroll: true });
  });
}
