/**
 * The feed's vertical swipe: one rule for the island's drag (src/islands/Feed.tsx) and for a swipe made on the server's
 * markup before the island hydrated, which the page's inline script records (src/components/VideoPlayer.astro).
 */

/** A drag further than this (px) pages. */
export const DRAG_PAGE_PX = 80;
/** A flick (faster than FLICK_SPEED px/ms) pages from this far. */
const FLICK_PX = 24;
const FLICK_SPEED = 0.5;

/** Window property where the inline script leaves a swipe made before hydration. */
export const PENDING_SWIPE_KEY = 'syPendingSwipe';
/** Window event the inline script fires after leaving one, for an island that hydrated during the gesture. */
export const PENDING_SWIPE_EVENT = 'sy:feed-swipe';

export interface Swipe {
  /** Vertical distance, px (negative: up). */
  dy: number;
  /** Duration, ms. */
  ms: number;
}

/** Where a swipe moves the feed: up to the next video (1), down to the previous one (-1), or nowhere (0). */
export function swipeStep({ dy, ms }: Swipe): 1 | -1 | 0 {
  const far = Math.abs(dy);
  const fast = far / Math.max(1, ms) > FLICK_SPEED;
  if (far > DRAG_PAGE_PX || (fast && far > FLICK_PX)) return dy < 0 ? 1 : -1;
  return 0;
}

/** The swipe made before hydration, once. */
export function takePendingSwipe(): Swipe | null {
  const w = globalThis as unknown as Record<string, Swipe | undefined>;
  const swipe = w[PENDING_SWIPE_KEY] ?? null;
  delete w[PENDING_SWIPE_KEY];
  return swipe && Number.isFinite(swipe.dy) && Number.isFinite(swipe.ms) ? swipe : null;
}
