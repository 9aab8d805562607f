/** What the studio's 直播 page and a live room's page exchange with the server (browser-safe, no server imports). */

export const LIVE_API = {
  /** GET → LiveStudio. */
  studio: '/api/studio/live',
  /** POST → { key, server }: a new stream key, shown this once. */
  key: '/api/studio/live/key',
  /** POST { title?, channelId?, record? } → LiveStudio. */
  settings: '/api/studio/live/settings',
  /** POST { coverUploadId } or { fromFrame: 1 } → LiveStudio. */
  cover: '/api/studio/live/cover',
  /** POST { room_id, count } → { count }: 点赞, a few taps at a time. */
  like: '/api/live/room/like',
  /** GET → LiveNow[]: the rooms on air, for /live to refresh its counts and pictures. */
  now: '/api/live/now',
} as const;

/** A broadcast's state as its room shows it. */
export type LiveState = 'live' | 'paused' | 'ended';

/** The studio's 直播 page. */
export interface LiveStudio {
  title: string;
  channelId: number;
  record: boolean;
  /** The cover's URL, or null for the stream's own frame. */
  cover: string | null;
  /** The RTMP server to paste into OBS (rtmp://host:port/live). */
  server: string;
  hasKey: boolean;
  /** Unix ms when the key was made, or null. */
  keyCreatedAt: number | null;
  maxKbps: number;
  titleMax: number;
  channels: { id: number; name: string }[];
  /** The broadcast on air, or null. */
  broadcast: {
    roomId: number;
    state: 'live' | 'paused';
    startedAt: number;
    viewers: number;
    likes: number;
    /** The latest frame's URL, or null before the first. */
    frame: string | null;
    ingest: { width: number; height: number; fps: number; kbps: number; videoCodec: string; audioCodec: string } | null;
  } | null;
  /** The last refused publish: why (in words) and when (unix ms). */
  refusal: { reason: string; at: number } | null;
}

/** A room on air as /live refreshes it. */
export interface LiveNow {
  id: number;
  viewers: number;
  /** The latest frame's URL, or the cover's. */
  picture: string;
  paused: boolean;
}

/** Hearts one batch may carry (the server's limit too). */
export const LIKE_BATCH_MAX = 20;
