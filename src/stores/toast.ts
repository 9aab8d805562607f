/** One toast service for every page and island, in plain DOM (3000 ms, offset 16 px, stacked). */
export type ToastType = 'info' | 'success' | 'error';

export interface ToastOptions {
  type?: ToastType;
  /** Milliseconds on screen; 3000 by default (5000 with an action, so there is time to reach it). */
  duration?: number;
  /** A button in the toast (撤销): clicking it dismisses the toast and runs `run`. */
  action?: { label: string; run: () => void };
}

export const TOAST_DURATION = 3000;
export const TOAST_OFFSET = 16;

const REGION_ID = 'sy-toasts';
const ICON: Record<ToastType, string> = { info: 'ℹ', success: '✓', error: '!' };

function region(): HTMLElement {
  const existing = document.getElementById(REGION_ID);
  if (existing) return existing;
  const el = document.createElement('div');
  el.id = REGION_ID;
  // A polite live region that exists before the first message, so screen readers announce it.
  el.setAttribute('role', 'status');
  el.setAttribute('aria-live', 'polite');
  el.style.cssText =
    `position:fixed;top:${TOAST_OFFSET}px;left:50%;transform:translateX(-50%);z-index:1000;` +
    `display:flex;flex-direction:column;align-items:center;gap:8px;pointer-events:none;`;
  document.body.append(el);
  return el;
}

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Shows `message` for `duration` ms; returns a function that dismisses it early. Does nothing outside a browser. */
export function toast(message: string, { type = 'info', duration, action }: ToastOptions = {}): () => void {
  duration ??= action ? 5000 : TOAST_DURATION;
  if (typeof document === 'undefined' || !message) return () => {};
  const item = document.createElement('div');
  item.dataset.type = type;
  item.style.cssText =
    'display:flex;align-items:center;gap:8px;max-width:min(420px,90vw);padding:10px 16px;border-radius:8px;' +
    'font-size:14px;line-height:20px;box-shadow:0 4px 16px rgba(0,0,0,.18);pointer-events:auto;' +
    `background:${type === 'error' ? 'var(--c-accent, #fe2c55)' : 'rgba(22,24,35,.92)'};color:#fff;`;
  const icon = document.createElement('span');
  icon.setAttribute('aria-hidden', 'true');
  icon.textContent = ICON[type];
  icon.style.cssText = 'font-weight:700';
  const text = document.createElement('span');
  text.textContent = message;
  item.append(icon, text);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action.label;
    button.style.cssText =
      // 44 px tall for a finger, drawn into the toast's own padding.
      'margin:-12px -8px -12px 4px;min-height:44px;min-width:44px;padding:0 12px;border-radius:6px;font-weight:600;color:#fe2c55;' +
      'background:transparent;border:0;cursor:pointer;';
    button.addEventListener('click', () => {
      dismiss();
      action.run();
    });
    item.append(button);
  }

  const animate = !reducedMotion();
  if (animate) {
    item.style.transition = 'opacity .2s ease, transform .2s ease';
    item.style.opacity = '0';
    item.style.transform = 'translateY(-8px)';
  }
  region().append(item);
  if (animate) {
    requestAnimationFrame(() => {
      item.style.opacity = '1';
      item.style.transform = 'none';
    });
  }

  let gone = false;
  const dismiss = () => {
    if (gone) return;
    gone = true;
    clearTimeout(timer);
    if (!animate) return item.remove();
    item.style.opacity = '0';
    item.addEventListener('transitionend', () => item.remove(), { once: true });
    setTimeout(() => item.remove(), 300);
  };
  const timer = setTimeout(dismiss, duration);
  return dismiss;
}
