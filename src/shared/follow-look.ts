/**
 * How a 关注 button looks in each state, in one place: the islands render it, and the marks that arrive after first
 * paint (src/client/marks.ts) set the same classes and label on a button whose island has not hydrated yet, so that the
 * hydration finds exactly what it would have drawn.
 */
import type { FollowStatus } from './api-shapes.ts';

/** md: a profile's header; sm: beside an author's name. */
export type FollowSize = 'md' | 'sm';

const BOX: Record<FollowSize, string> = { md: 'h-9 min-w-24 px-6', sm: 'h-8 min-w-20 px-4' };

/** The classes of a 关注 button of `size` in `status`. */
export function followButtonClass(status: FollowStatus, size: FollowSize): string {
  return status !== 0
    ? `focus-ring inline-flex shrink-0 items-center justify-center rounded-md bg-raised text-sm text-secondary hover:bg-hover ${BOX[size]}`
    : `btn-accent shrink-0 ${BOX[size]}`;
}

/** The classes of the pill inside a badge-sized 关注 (under an avatar in the phone's action column). */
export function followPillClass(status: FollowStatus): string {
  return `whitespace-nowrap rounded-full px-2 text-xs leading-5 ${status === 0 ? 'bg-accent-fill text-white' : 'bg-white/90 text-black/70'}`;
}

/** The labels a 关注 button carries for the marks (`data-labels`): 关注|已关注|互相关注. */
export function joinLabels(labels: readonly [string, string, string]): string {
  return labels.join('|');
}
