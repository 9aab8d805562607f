/** Danmaku on a subset of videos, a few within each clip's duration. */
import { DANMAKU } from './content.ts';
import type { PlanContext } from './context.ts';
import type { Cast } from './users.ts';
import type { VideoPlan } from './videos.ts';

export interface DanmakuPlan {
  videoId: number;
  userId: number;
  text: string;
  offsetMs: number;
  createdAt: number;
}

export function planDanmaku(
  { rng, after }: PlanContext,
  { users, activeCum }: Cast,
  videos: VideoPlan[],
): DanmakuPlan[] {
  const danmaku: DanmakuPlan[] = [];
  for (const v of videos) {
    if (!rng.chance(0.45)) continue;
    // A few per clip, not a wall: about one for every two seconds of a short clip at most.
    for (let k = rng.int(1, Math.max(1, Math.floor(v.clip.durationMs / 2000))); k > 0; k--) {
      danmaku.push({
        videoId: v.id,
        userId: users[rng.weighted(activeCum)]!.id,
        text: rng.pick(DANMAKU),
        offsetMs: rng.int(0, Math.max(0, v.clip.durationMs - 500)),
        createdAt: after(v.createdAt, 0.5),
      });
    }
  }
  return danmaku;
}
