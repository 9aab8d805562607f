/** A message to show once the next page has loaded (a login reloads the page it happened on): one toast, then gone. */
const KEY = 'sy.flash';

/** Keeps `text` for the next page load of this tab. */
export function setFlash(text: string): void {
  try {
    sessionStorage.setItem(KEY, text);
  } catch {
    // Storage blocked: the message is lost, nothing else.
  }
}

/** Shows a kept message, if any, as a toast (the toast code loads only then). */
export function showFlash(): void {
  let text: string | null = null;
  try {
    text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (text) void import('./toast.ts').then((m) => m.toast(text, { type: 'success', duration: 5000 }));
}
