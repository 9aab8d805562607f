import type { ClientDirective } from 'astro';

/**
 * `client:interact`: hydrates an island on the first interaction with it (pointer, touch, focus or key), or when
 * `window` receives `sy:hydrate-<value>` (for example `openLogin()` elsewhere on the page), so header islands add
 * nothing to a page's first-load JavaScript. A click or focus that arrives while the island loads is replayed.
 */
const interact: ClientDirective = (load, options, el) => {
  const triggers = ['pointerenter', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
  const globalEvent = typeof options.value === 'string' && options.value ? `sy:hydrate-${options.value}` : undefined;
  let started = false;
  let clicked: HTMLElement | null = null;
  let focused: HTMLElement | null = null;

  const onClick = (ev: Event) => {
    // A click on an icon lands on its <svg>, which has no click(): replay it on the control around it.
    const target = ev.target as Element;
    clicked = target.closest<HTMLElement>('a[href], button, input, select, textarea, label, summary, [role="button"]') ?? (target instanceof HTMLElement ? target : null);
  };
  const onFocus = (ev: Event) => {
    focused = ev.target as HTMLElement;
  };

  const start = async () => {
    if (started) return;
    started = true;
    triggers.forEach((name) => el.removeEventListener(name, start));
    if (globalEvent) window.removeEventListener(globalEvent, start);
    el.addEventListener('click', onClick);
    el.addEventListener('focusin', onFocus);
    const hydrate = await load();
    await hydrate();
    el.removeEventListener('click', onClick);
    el.removeEventListener('focusin', onFocus);
    // React hydrates onto the same nodes, so the element the user reached is still the one to replay on.
    if (focused && document.activeElement === focused) focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    if (clicked?.isConnected) clicked.click();
  };

  triggers.forEach((name) => el.addEventListener(name, start, { passive: true }));
  if (globalEvent) window.addEventListener(globalEvent, start);
};

export default interact;
