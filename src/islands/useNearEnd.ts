import { useEffect, type RefObject } from 'react';

/**
 * Calls `onNear` while `sentinel` is within `margin` of what `root` (a scrolling box) shows. The observer is made
 * anew whenever `deps` change (a page arrived, the list was reset), because an observer reports only changes: a
 * sentinel still in view after a page loads would otherwise never ask for the next one.
 */
export function useNearEnd(
  sentinel: RefObject<Element | null>,
  root: RefObject<Element | null>,
  onNear: () => void,
  deps: readonly unknown[],
  margin = '120px',
): void {
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onNear(), {
      root: root.current,
      rootMargin: margin,
    });
    io.observe(el);
    return () => io.disconnect();
    // The caller names what should re-arm the observer; onNear is read fresh each time it is re-armed.
  }, deps);
}
