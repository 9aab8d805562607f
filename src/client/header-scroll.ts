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
  // The page may open scrolled (a reload, a #fragment). Read in the next frame, whose layout it then takes: read as the
  // page parses, window.scrollY forced a layout of the whole page there, a long task on a phone.
  requestAnimationFrame(update);
  window.addEventListener('scroll', update, { passive: true });
}
