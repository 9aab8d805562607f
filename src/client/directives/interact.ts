import type { ClientDirective } from 'astro';
import { SESSION_ENDED_EVENT } from '../../shared/wake-events.ts';

/**
 * `client:interact`: hydrates an island on the first interaction with it (pointer, touch, focus or key), or when
 * `window` receives `sy:hydrate-<value>` (for example `openLogin()` elsewhere on the page) or the viewer's session ends
 * (`SESSION_ENDED_EVENT`: islands drop what was personal), so header islands add
 * nothing to a page's first-load JavaScript. What the island missed while it loaded is handed to it afterwards: the
 * click (on the node it landed on, an icon's <svg> included), the focus, the pointer resting over it (a hover
 * popover opens), and an Enter in a box that sends with it (a `<textarea enterkeyhint="send">`: the island sends).
 */
const interact: ClientDirective = (load, options, el) => {
  const triggers = ['pointerenter', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
  const globalEvent = typeof options.value === 'string' && options.value ? `sy:hydrate-${options.value}` : undefined;
  let started = false;
  let touch = false;
  let clicked: { target: Element; init: MouseEventInit } | null = null;
  let focused: HTMLElement | null = null;
  let entered: Element | null = null;

  const onClick = (ev: MouseEvent) => {
    // A link navigates by itself; a replay would only start the same navigation again.
    if (ev.defaultPrevented || (ev.target as Element).closest('a[href]')) return;
    // Toggles and form submits act once, after hydration, where the island's handler sees them.
    ev.preventDefault();
    const { clientX, clientY, screenX, screenY, ctrlKey, shiftKey, altKey, metaKey, detail } = ev;
    clicked = {
      target: ev.target as Element,
      init: {
        bubbles: true,
        cancelable: true,
        composed: true,
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
      },
    };
  };
  const onFocus = (ev: Event) => {
    focused = ev.target as HTMLElement;
  };
  // Enter (not Shift+Enter, not an IME's pick) would only add a new line to the text the island sends with it: held
  // back, it reaches the island once, however often it was pressed. Any other box keeps its Enter.
  const onKey = (ev: KeyboardEvent) => {
    if (
      ev.key === 'Enter' &&
      !ev.shiftKey &&
      !ev.isComposing &&
      (ev.target as Element).matches('textarea[enterkeyhint=send]')
    ) {
      ev.preventDefault();
      entered = ev.target as Element;
    }
  };

  /** The click again, on the node it landed on, or on what hydration put at the same point if that node was replaced. */
  const replayClick = ({ target, init }: { target: Element; init: MouseEventInit }) => {
    const at = document.elementFromPoint(init.clientX ?? 0, init.clientY ?? 0);
    const node = target.isConnected ? target : at && el.contains(at) ? at : null;
    node?.dispatchEvent(new MouseEvent('click', init));
  };

  /** React learns of a pointer entering from pointerover/mouseover: the one that woke the island came too early. */
  const replayHover = () => {
    const hovered = el.querySelectorAll(':hover');
    const inner = hovered[hovered.length - 1];
    if (!inner) return;
    const init = { bubbles: true, cancelable: true, composed: true, view: window };
    inner.dispatchEvent(
      new PointerEvent('pointerover', { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true }),
    );
    inner.dispatchEvent(new MouseEvent('mouseover', init));
  };

  const start = async (ev?: Event) => {
    if (started) return;
    started = true;
    touch = ev?.type === 'touchstart' || (ev instanceof PointerEvent && ev.pointerType === 'touch');
    // The focus that woke the island came before the listener below: it is handed over too.
    if (ev?.type === 'focusin') focused = ev.target as HTMLElement;
    triggers.forEach((name) => el.removeEventListener(name, start));
    if (globalEvent) window.removeEventListener(globalEvent, start);
    window.removeEventListener(SESSION_ENDED_EVENT, start);
    el.addEventListener('click', onClick);
    el.addEventListener('focusin', onFocus);
    const hydrate = await load();
    await hydrate();
    el.removeEventListener('click', onClick);
    el.removeEventListener('focusin', onFocus);
    el.removeEventListener('keydown', onKey);
    // A tap leaves :hover behind it; only a resting mouse or pen means hover.
    if (!touch) replayHover();
    if (focused && document.activeElement === focused)
      focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    if (clicked) replayClick(clicked);
    // On the same box, which still holds the text: the island reads it from there (its state may not have it yet). A
    // box hydration replaced is out of the document: the event reaches no one.
    entered?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  };

  triggers.forEach((name) => el.addEventListener(name, start, { passive: true }));
  // From the start: the Enter may be what wakes the island.
  el.addEventListener('keydown', onKey);
  if (globalEvent) window.addEventListener(globalEvent, start);
  window.addEventListener(SESSION_ENDED_EVENT, start);
};

export default interact;
