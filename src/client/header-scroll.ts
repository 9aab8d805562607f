/** Header style: plain at 60 px of scroll or less, the scrolled style beyond. */
export const SCROLL_THRESHOLD = 60;

export function watchHeaderScroll(header: HTMLElement): void {
  let scrolled: boolean | undefined;
  const update = () => {
    const next = window.scrollY > SCROLL_THRESHOLD;
    if (next === scrolled) return;
    scrolled = next;
    header.dataset.scrolled = String(next);
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
}
