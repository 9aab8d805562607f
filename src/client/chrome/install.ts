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

/** How long after the page's load the worker is registered. */
const REGISTER_AFTER_LOAD_MS = 3000;

/**
 * Registers /sw.js a few seconds after the page has loaded, when the browser is next idle. Installing it fetches the
 * offline shell and its assets and boots the worker's own thread: work that would share a phone's cores with the
 * seconds right after a page appears, when a person first touches it (and with the first video's decoding). Nothing
 * needs the worker sooner: it serves later visits and makes the site installable.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  const idle = (run: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : run();
  const later = () => setTimeout(() => idle(register), REGISTER_AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
