/**
 * 作品数据 history for the last 30 days, so a creator's charts have something to show on a fresh site. Built from the
 * finished plan without the plan's PRNG (its draws, and so its fingerprint, stay as they were): likes, comments and
 * follows are counted on the day their rows were made; plays and shares, which the plan holds as totals only, are
 * spread over each video's life with a fixed per-day wobble. Every video's days add up to no more than its totals.
 */
import { wallClock } from '../../../shared/wall-clock.ts';
import { DAY, type PairPlan } from './context.ts';
import type { CommentPlan } from './comments.ts';
import { mulberry32 } from './rng.ts';
import type { VideoPlan } from './videos.ts';

/** Days of history, today included. */
export const HISTORY_DAYS = 30;

// Type aliases, not interfaces: insertAll takes them as plain records.
export type VideoDayPlan = {
  videoId: number;
  /** YYYY-MM-DD, China's calendar. */
  day: string;
  plays: number;
  likes: number;
  comments: number;
  shares: number;
};

export type FollowerDayPlan = {
  userId: number;
  day: string;
  newFollowers: number;
};

export interface DailySources {
  videos: VideoPlan[];
  /** Per video, in id order. */
  reach: { shareCount: number; playCount: number }[];
  likes: PairPlan[];
  comments: CommentPlan[];
  follows: PairPlan[];
}

function dayOf(ms: number): string {
  const c = wallClock(new Date(ms));
  return `${c.year}-${c.month}-${c.day}`;
}

/**
 * `total` over a video's `life` (its calendar days, oldest first): newer days weigh less (a video is watched most when
 * new), each day wobbles by a number fixed by the video and the day; floors keep the sum at most `total`.
 */
function spread(total: number, videoId: number, life: string[], salt: number): Map<string, number> {
  const weights = life.map((_, k) => (0.5 + mulberry32(videoId * 7919 + k * 104_729 + salt)()) / (1 + k / 4));
  const sum = weights.reduce((s, w) => s + w, 0);
  return new Map(life.map((day, k) => [day, Math.floor((total * weights[k]!) / sum)]));
}

/** The per-day rows of the last HISTORY_DAYS days (China's calendar) as of `nowMs`. */
export function planDailyStats(
  src: DailySources,
  nowMs: number,
): { videoDays: VideoDayPlan[]; followerDays: FollowerDayPlan[] } {
  // Calendar days back from today, far enough for the oldest video. China keeps no daylight saving: stepping back by
  // 24 hours lands on each calendar day once.
  const oldest = Math.min(nowMs, ...src.videos.map((v) => v.createdAt));
  const calendar = Array.from({ length: Math.ceil((nowMs - oldest) / DAY) + 2 }, (_, k) => dayOf(nowMs - k * DAY));
  const recent = new Set(calendar.slice(0, HISTORY_DAYS));
  const rows = new Map<string, VideoDayPlan>();
  const row = (videoId: number, day: string): VideoDayPlan => {
    const key = `${videoId}:${day}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { videoId, day, plays: 0, likes: 0, comments: 0, shares: 0 }));
    return r;
  };

  for (const v of src.videos) {
    const reach = src.reach[v.id - 1]!;
    const life = calendar.slice(0, calendar.indexOf(dayOf(v.createdAt)) + 1).reverse();
    for (const [stat, total, salt] of [
      ['plays', reach.playCount, 1],
      ['shares', reach.shareCount, 2],
    ] as const) {
      for (const [day, n] of spread(total, v.id, life, salt)) if (n > 0 && recent.has(day)) row(v.id, day)[stat] += n;
    }
  }
  for (const l of src.likes) {
    const day = dayOf(l.createdAt);
    if (recent.has(day)) row(l.targetId, day).likes += 1;
  }
  for (const c of src.comments) {
    const day = dayOf(c.createdAt);
    if (c.deletedAt === null && recent.has(day)) row(c.video.id, day).comments += 1;
  }

  const followers = new Map<string, FollowerDayPlan>();
  for (const f of src.follows) {
    const day = dayOf(f.createdAt);
    if (!recent.has(day)) continue;
    const key = `${f.targetId}:${day}`;
    const r = followers.get(key) ?? { userId: f.targetId, day, newFollowers: 0 };
    r.newFollowers += 1;
    followers.set(key, r);
  }

  const order =
    <T extends { day: string }>(id: (r: T) => number) =>
    (a: T, b: T) =>
      id(a) - id(b) || a.day.localeCompare(b.day);
  return {
    videoDays: [...rows.values()].sort(order((r) => r.videoId)),
    followerDays: [...followers.values()].sort(order((r) => r.userId)),
  };
}
