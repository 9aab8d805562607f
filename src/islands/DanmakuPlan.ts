/** The arithmetic of 弹幕 lanes, kept apart from the DOM so it can be tested. */
import type { Bullet } from '../stores/danmaku.ts';

/** Longest danmaku in characters (the API's limit too). */
export const MAX_DANMAKU = 50;
/** Pixels between two danmaku following each other in a lane. */
export const LANE_GAP_PX = 24;

export interface Lane {
  /** When (performance.now() ms) the last danmaku in this lane has cleared the right edge by LANE_GAP_PX. */
  freeAt: number;
}

/**
 * Picks the topmost lane a danmaku `width` px wide may enter at `now`, every danmaku moving at `speed` px/ms, and
 * books it; -1 when all lanes are busy (the danmaku is dropped, so the layer never grows past its lanes). The viewer's
 * own (`own`) is never dropped: with every lane busy it takes the one that frees first.
 */
export function planLane(lanes: Lane[], now: number, width: number, speed: number, own = false): number {
  const i = freeLane(lanes, now, own);
  if (i >= 0) lanes[i]!.freeAt = now + (width + LANE_GAP_PX) / Math.max(speed, 1e-6);
  return i;
}

/**
 * For viewers who prefer reduced motion: danmaku stand still, centred in their lane, for `holdMs`. Picks the topmost
 * free lane at `now` and books it for that long; -1 when all lanes are busy (dropped, as for moving danmaku, unless
 * it is the viewer's own).
 */
export function holdLane(lanes: Lane[], now: number, holdMs: number, own = false): number {
  const i = freeLane(lanes, now, own);
  if (i >= 0) lanes[i]!.freeAt = now + holdMs;
  return i;
}

/** The topmost lane free at `now`; else, for the viewer's own danmaku, the one that frees first; else -1. */
function freeLane(lanes: Lane[], now: number, own: boolean): number {
  const i = lanes.findIndex((l) => l.freeAt <= now);
  if (i >= 0 || !own || lanes.length === 0) return i;
  let soonest = 0;
  for (let k = 1; k < lanes.length; k++) if (lanes[k]!.freeAt < lanes[soonest]!.freeAt) soonest = k;
  return soonest;
}

/** The danmaku of a list sorted by time whose time falls in [from, to). */
export function dueBetween(list: readonly Bullet[], from: number, to: number): Bullet[] {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < from) lo = mid + 1;
    else hi = mid;
  }
  const due: Bullet[] = [];
  for (let i = lo; i < list.length && list[i]!.at < to; i++) due.push(list[i]!);
  return due;
}
