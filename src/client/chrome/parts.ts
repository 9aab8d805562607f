/**
 * The chrome's popovers and dialogs whose contents are the same on every page (客户端, 更多, 充钻石, 快捷访问, 投稿, 设置,
 * 意见反馈) come to the page as empty boxes marked `data-part`; their contents come once from the address in <body
 * data-parts> (src/pages/chrome/parts.astro), which the browser keeps. They are fetched when the page is idle, or at the
 * first pointer, focus or touch on a trigger; a click or key that opens a box before they arrive waits for them.
 */
import { yieldToMain } from '../yield.ts';

let loading: Promise<void> | undefined;
let wire: (() => void) | undefined;

/** Boxes still waiting for their contents. */
function pending(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-part]')];
}

/** Fetches the contents (once) and moves each into its box; resolves when they are in, or failed. */
export function loadParts(): Promise<void> {
  const url = document.body.dataset.parts;
  if (!url || !pending().length) return Promise.resolve();
  loading ??= fetch(url, { credentials: 'same-origin' })
    .then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.text();
    })
    .then(async (html) => {
      const parsed = document.createElement('template');
      parsed.innerHTML = html;
      // One box a turn; the boxes stay marked (a click on their triggers held) until all are in and wired together.
      const filled: HTMLElement[] = [];
      for (const part of parsed.content.querySelectorAll<HTMLTemplateElement>('template[data-part]')) {
        const box = document.getElementById(part.dataset.part!);
        if (!box?.hasAttribute('data-part') || filled.includes(box)) continue;
        await yieldToMain();
        box.append(document.importNode(part.content, true));
        filled.push(box);
      }
      for (const box of filled) box.removeAttribute('data-part');
      wire?.();
    })
    .catch(() => {
      // Tried again at the next trigger.
      loading = undefined;
    });
  return loading;
}

/** Whether `target` (a popover or dialog) is a box whose contents have not come yet. */
export function isPending(target: Element | null): boolean {
  return !!target?.hasAttribute('data-part') && !!document.body.dataset.parts;
}

/**
 * Starts the fetch at the first sign of intent on a trigger of a waiting box, and when the page is idle after load;
 * `wired` runs once the contents are in, before anything opens. A click that would open a waiting box is held and given
 * again once its contents are in.
 */
export function watchParts(wired: () => void): void {
  wire = wired;
  if (!pending().length) return;
  const targetOf = (el: Element | null): HTMLElement | null => {
    const trigger = el?.closest<HTMLElement>('[popovertarget], [data-pop], [data-dialog]');
    const id = trigger?.getAttribute('popovertarget') ?? trigger?.dataset.pop ?? trigger?.dataset.dialog;
    return id ? document.getElementById(id) : null;
  };
  const early = (e: Event) => {
    if (isPending(targetOf(e.target as Element))) void loadParts();
  };
  for (const type of ['pointerover', 'focusin', 'touchstart'])
    document.addEventListener(type, early, { capture: true, passive: true });
  document.addEventListener(
    'click',
    (e) => {
      const trigger = (e.target as Element | null)?.closest<HTMLElement>('[popovertarget], [data-dialog]');
      if (!trigger || !isPending(targetOf(trigger))) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const { detail, clientX, clientY, screenX, screenY, ctrlKey, shiftKey, altKey, metaKey } = e as MouseEvent;
      void loadParts().then(() => {
        if (isPending(targetOf(trigger))) return;
        trigger.dispatchEvent(
          new MouseEvent('click', {
            bubbles: true,
            cancelable: true,
            view: window,
            detail,
            clientX,
            clientY,
            screenX,
            screenY,
            ctrlKey,
            shiftKey,
            altKey,
            metaKey,
          }),
        );
      });
    },
    { capture: true },
  );
  const idle = () => (window.requestIdleCallback ?? setTimeout)(() => void loadParts());
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}
