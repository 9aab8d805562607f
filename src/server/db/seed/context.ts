/** What every part of the plan draws on: the one PRNG, the seed's "now", and the media to point at. */
import type { MediaClip, MediaManifest } from './manifest.ts';
import { makeRng, SEED, type Rng } from './rng.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A row between two users (or a user and a video or comment) at a moment. */
export interface PairPlan {
  userId: number;
  targetId: number;
  createdAt: number;
}

export interface PlanContext {
  rng: Rng;
  nowMs: number;
  manifest: MediaManifest;
  /** The moment `ms` before now. */
  ago(ms: number): number;
  /** A moment between `start` and now; `recent` is the share that falls in the last 48 hours. */
  after(start: number, recent: number): number;
  /** A Douyin-shaped sec_uid. */
  secUid(): string;
  profileBanners: string[];
  /** The clips of a channel, else every clip. */
  clipsFor(channel: number): MediaClip[];
}

/** A fresh context: every plan built from one draws the same numbers in the same order. */
export function planContext(nowMs: number, manifest: MediaManifest): PlanContext {
  const rng = makeRng(SEED);
  const ago = (ms: number) => Math.floor(nowMs - ms);
  const after = (start: number, recent: number) => {
    const span = nowMs - start;
    if (span <= 0) return nowMs;
    if (rng.chance(recent)) return ago(rng.next() * Math.min(span, 2 * DAY));
    return Math.floor(start + rng.next() * span);
  };
  const secUid = () =>
    'MS4wLjABAAAA' + Array.from({ length: 40 }, () => URL_SAFE[Math.floor(rng.next() * 64)]).join('');
  const clipsFor = (channel: number) => {
    const own = manifest.clips.filter((c) => c.channel === channel);
    return own.length > 0 ? own : manifest.clips;
  };
  return {
    rng,
    nowMs,
    manifest,
    ago,
    after,
    secUid,
    profileBanners: manifest.profileBanners.map((b) => b.image),
    clipsFor,
  };
}
