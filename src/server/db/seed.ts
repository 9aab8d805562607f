/** The deterministic seed: a living site (users, videos, series, live rooms, comments, social graph) in one transaction. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { hashPassword } from '../services/password.ts';
import { tokenize } from '../services/search-tokens.ts';
import type { Db } from './client.ts';
import { DEMO_EMAIL, DEMO_NICKNAME, demoPassword } from './demo.ts';
import { recountAll, type DbOrTx } from './recount.ts';
import * as s from './schema.ts';
import type { NoticeKind } from '../../shared/messaging.ts';
import {
  CHANNEL_IDS,
  CHANNELS,
  DANMAKU,
  DM_FIRST_LINE,
  DM_UNREAD_LINES,
  EPISODE_HOOKS,
  GENERIC_COMMENTS,
  LIVE_MESSAGES,
  MENTION_TAILS,
  MESSAGE_LINES,
  NICK_SUFFIXES,
  REPLIES,
  THEATRE,
  type ChannelId,
} from './seed-content.ts';

export { DEMO_EMAIL, DEMO_NICKNAME, demoPassword, hasDemoAccount } from './demo.ts';

const clipSchema = z.object({
  video: z.string().min(1),
  poster: z.string().min(1),
  durationMs: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  channel: z.coerce.number().int(),
  caption: z.string(),
});
const manifestSchema = z.object({
  clips: z.array(clipSchema).min(1),
  avatars: z.array(z.object({ image: z.string().min(1) })).min(1),
});

export type MediaClip = z.infer<typeof clipSchema>;
export type MediaManifest = z.infer<typeof manifestSchema>;

/** MEDIA_MANIFEST, else media/manifest.json of this repo (beside src), else under the cwd. */
export function manifestPath(): string {
  if (process.env.MEDIA_MANIFEST) return path.resolve(process.env.MEDIA_MANIFEST);
  const besideSource = fileURLToPath(new URL('../../../media/manifest.json', import.meta.url));
  return existsSync(besideSource) ? besideSource : path.resolve('media/manifest.json');
}

/** Reads and validates the sample-media manifest written by media/make-media.sh. */
export function loadManifest(file = manifestPath()): MediaManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export interface SeedOptions {
  /** The seed's "now"; every timestamp is now minus a deterministic offset. */
  now?: Date;
  manifest?: MediaManifest;
}

/** Rows inserted per table. */
export type SeedSummary = Record<string, number>;

/** How many of the demo account's newest notifications of each kind are still unread. */
const UNREAD_PER_KIND = 2;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SEED = 20_240_601;
const CHUNK = 1000;
const UNNEST_CHUNK = 5000;
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** mulberry32: a tiny, fast PRNG whose sequence is the same on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Rng = ReturnType<typeof makeRng>;

function makeRng(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  /** An index drawn with probability proportional to weights[i] (cumulative precomputed by `cumulate`). */
  const weighted = (cumulative: number[]): number => {
    const target = next() * cumulative[cumulative.length - 1]!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  /** Up to k distinct weighted indexes, skipping those `exclude` rejects. */
  const sample = (cumulative: number[], k: number, exclude: (i: number) => boolean = () => false): number[] => {
    const chosen = new Set<number>();
    for (let attempts = 0; chosen.size < k && attempts < k * 20; attempts++) {
      const i = weighted(cumulative);
      if (!exclude(i)) chosen.add(i);
    }
    return [...chosen];
  };
  return { next, int, pick, weighted, sample, chance: (p: number) => next() < p };
}

function cumulate(weights: number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}

function fill(template: string, rng: Rng, content: { a: string[]; b: string[] }): { text: string; a?: string } {
  let a: string | undefined;
  const text = template
    .replace('{a}', () => (a = rng.pick(content.a)))
    .replace('{b}', () => rng.pick(content.b));
  return a === undefined ? { text } : { text, a };
}

interface UserPlan {
  id: number;
  secUid: string;
  email: string | null;
  nickname: string;
  signature: string;
  avatar: string;
  isDemo: boolean;
  channel: ChannelId;
  weight: number;
  createdAt: number;
}

interface VideoPlan {
  id: number;
  author: UserPlan;
  channelId: ChannelId;
  title: string;
  tags: string[];
  clip: MediaClip;
  createdAt: number;
  appeal: number;
  theatre: boolean;
}

interface CommentPlan {
  id: number;
  video: VideoPlan;
  user: UserPlan;
  parentId: number | null;
  replyTo: UserPlan | null;
  text: string;
  createdAt: number;
  deletedAt: number | null;
}

interface PairPlan {
  userId: number;
  targetId: number;
  createdAt: number;
}

/** Everything the seed inserts, built in memory from the PRNG alone (no database reads), so it is reproducible. */
function buildPlan(nowMs: number, manifest: MediaManifest, hashtagBase: number) {
  const rng = makeRng(SEED);
  const ago = (ms: number) => Math.floor(nowMs - ms);
  /** A moment between `start` and now; `recent` is the share that falls in the last 48 hours. */
  const after = (start: number, recent: number) => {
    const span = nowMs - start;
    if (span <= 0) return nowMs;
    if (rng.chance(recent)) return ago(rng.next() * Math.min(span, 2 * DAY));
    return Math.floor(start + rng.next() * span);
  };
  const secUid = () => 'MS4wLjABAAAA' + Array.from({ length: 40 }, () => URL_SAFE[Math.floor(rng.next() * 64)]).join('');
  const avatars = manifest.avatars.map((a) => a.image);
  const clipsFor = (channel: number) => {
    const own = manifest.clips.filter((c) => c.channel === channel);
    return own.length > 0 ? own : manifest.clips;
  };

  // Users: the demo account first, then 60 creators, eight per channel-ish, with power-law popularity.
  const users: UserPlan[] = [
    {
      id: 1,
      secUid: secUid(),
      email: DEMO_EMAIL,
      nickname: DEMO_NICKNAME,
      signature: '闪映官方体验账号，带你逛遍每个频道',
      avatar: avatars[0]!,
      isDemo: true,
      channel: 300204,
      weight: 0.25,
      createdAt: ago(90 * DAY),
    },
  ];
  const nicknames = new Set<string>([DEMO_NICKNAME]);
  const ranks = Array.from({ length: 60 }, (_, i) => i);
  for (let i = ranks.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
  }
  for (let i = 0; i < 60; i++) {
    const channel = CHANNEL_IDS[i % CHANNEL_IDS.length]!;
    const content = CHANNELS[channel];
    let nickname = '';
    for (let attempt = 0; attempt < 50 && (nickname === '' || nicknames.has(nickname)); attempt++) {
      nickname = rng.pick(content.nickPrefixes) + rng.pick(NICK_SUFFIXES);
    }
    if (nicknames.has(nickname)) nickname += String(i);
    nicknames.add(nickname);
    users.push({
      id: users.length + 1,
      secUid: secUid(),
      email: null,
      nickname,
      signature: rng.pick(content.signatures),
      avatar: avatars[(i + 1) % avatars.length]!,
      isDemo: false,
      channel,
      weight: 1 / (ranks[i]! + 1) ** 1.1,
      createdAt: ago((70 + rng.next() * 300) * DAY),
    });
  }
  const demo = users[0]!;
  const creators = users.slice(1);
  const creatorCum = cumulate(creators.map((u) => u.weight));
  // Activity (who comments, likes, searches) is flatter than popularity.
  const activeCum = cumulate(users.map((u) => 0.4 + Math.sqrt(u.weight)));

  // Videos.
  const videos: VideoPlan[] = [];
  const titles = new Set<string>();
  const addVideo = (author: UserPlan, channelId: ChannelId, createdAt: number) => {
    const content = CHANNELS[channelId];
    let title = '';
    let a: string | undefined;
    for (let attempt = 0; attempt < 12 && (title === '' || titles.has(title)); attempt++) {
      ({ text: title, a } = fill(rng.pick(content.titles), rng, content));
    }
    titles.add(title);
    const tags = new Set<string>();
    if (rng.chance(0.75)) tags.add(content.tags[0]!);
    if (a !== undefined && rng.chance(0.7)) tags.add(a);
    const extra = rng.int(tags.size === 0 ? 1 : 0, 1);
    for (let k = 0; k < extra && tags.size < 3; k++) tags.add(rng.pick(content.tags.slice(1)));
    const video: VideoPlan = {
      id: videos.length + 1,
      author,
      channelId,
      title,
      tags: [...tags],
      clip: rng.pick(clipsFor(channelId)),
      createdAt,
      appeal: (0.15 + rng.next() ** 2) * (0.3 + Math.sqrt(author.weight)),
      theatre: false,
    };
    videos.push(video);
    return video;
  };
  const videoTime = () => (rng.chance(0.3) ? ago(rng.next() * 2 * DAY) : ago(2 * DAY + rng.next() * 58 * DAY));

  // The demo account's own six, mostly recent so its notifications are fresh.
  for (const [k, channel] of ([300204, 300201, 300209, 300203, 300208, 300207] as const).entries()) {
    addVideo(demo, channel, ago(k < 2 ? rng.next() * 2 * DAY : (2 + rng.next() * 8) * DAY));
  }
  // Every creator posts at least once in their channel, then each channel is filled up to 41.
  for (const u of creators) addVideo(u, u.channel, videoTime());
  for (const channel of CHANNEL_IDS) {
    const local = creators.filter((u) => u.channel === channel);
    const localCum = cumulate(local.map((u) => u.weight));
    let have = videos.filter((v) => v.channelId === channel && !v.author.isDemo).length;
    for (; have < 41; have++) {
      const author = rng.chance(0.8) ? local[rng.weighted(localCum)]! : creators[rng.weighted(creatorCum)]!;
      addVideo(author, channel, videoTime());
    }
  }

  // Theatre (放映厅) series: short dramas whose episodes are videos of their own.
  const series: { id: number; author: UserPlan; kind: 'mix' | 'theatre'; title: string; description: string; items: VideoPlan[] }[] = [];
  const theatreAuthors = rng.sample(creatorCum, THEATRE.length);
  for (const [k, drama] of THEATRE.entries()) {
    const author = creators[theatreAuthors[k] ?? k]!;
    const episodes = rng.int(3, 8);
    const start = ago((episodes + rng.int(1, 45)) * DAY);
    const clip = rng.pick(manifest.clips);
    const items: VideoPlan[] = [];
    for (let e = 1; e <= episodes; e++) {
      const hook = e === episodes ? '大结局' : rng.pick(EPISODE_HOOKS.slice(0, -1));
      const title = `《${drama.title}》第${e}集 ${hook}`;
      titles.add(title);
      const video: VideoPlan = {
        id: videos.length + 1,
        author,
        channelId: 300201,
        title,
        tags: ['短剧', drama.title],
        clip: e % 2 === 0 ? rng.pick(manifest.clips) : clip,
        createdAt: Math.min(nowMs, start + (e - 1) * DAY + rng.int(0, 6) * HOUR),
        appeal: (0.3 + rng.next()) * 0.6,
        theatre: true,
      };
      videos.push(video);
      items.push(video);
    }
    series.push({ id: 0, author, kind: 'theatre', title: `《${drama.title}》`, description: drama.description, items });
  }

  // 合集: the demo account and the seven most prolific creators gather 3–6 of their own videos.
  const ownVideos = (u: UserPlan) => videos.filter((v) => v.author === u && !v.theatre).sort((x, y) => x.createdAt - y.createdAt || x.id - y.id);
  const prolific = creators
    .map((u) => ({ u, n: ownVideos(u).length }))
    .filter((x) => x.n >= 3)
    .sort((x, y) => y.n - x.n || x.u.id - y.u.id)
    .slice(0, 7)
    .map((x) => x.u);
  for (const author of [demo, ...prolific]) {
    const mine = ownVideos(author);
    const items = mine.slice(0, Math.min(mine.length, rng.int(3, 6)));
    const channel = CHANNELS[items[0]!.channelId];
    const title = rng.pick(channel.mixTitles);
    series.push({ id: 0, author, kind: 'mix', title, description: `${title}，持续更新中`, items });
  }
  series.sort((x, y) => x.items[0]!.createdAt - y.items[0]!.createdAt);
  series.forEach((x, i) => (x.id = i + 1));

  // Hashtags in first-use order.
  const hashtagIds = new Map<string, number>();
  for (const v of videos) for (const t of v.tags) if (!hashtagIds.has(t)) hashtagIds.set(t, hashtagBase + hashtagIds.size + 1);

  const videoCum = cumulate(videos.map((v) => v.appeal));
  const othersVideo = (u: UserPlan) => (i: number) => videos[i]!.author === u;

  // Follows: power-law in-degree, a share of them mutual; the demo account follows 15, of whom 8 follow back.
  const follows = new Map<string, PairPlan>();
  const follow = (a: UserPlan, b: UserPlan, createdAt?: number) => {
    const key = `${a.id}:${b.id}`;
    if (a === b || follows.has(key)) return;
    follows.set(key, { userId: a.id, targetId: b.id, createdAt: createdAt ?? after(Math.max(a.createdAt, b.createdAt), 0.2) });
  };
  for (const a of creators) {
    for (const j of rng.sample(creatorCum, rng.int(3, 18), (j) => creators[j] === a)) follow(a, creators[j]!);
  }
  for (const edge of [...follows.values()]) {
    if (rng.chance(0.22)) follow(users[edge.targetId - 1]!, users[edge.userId - 1]!);
  }
  const demoFollows = rng.sample(creatorCum, 15).map((j) => creators[j]!);
  for (const [k, u] of demoFollows.entries()) {
    follow(demo, u);
    if (k < 8) follow(u, demo, after(demo.createdAt, 0.35));
  }
  const fans = creators.filter((u) => !demoFollows.includes(u));
  for (let k = 0; k < 6; k++) follow(rng.pick(fans), demo, after(demo.createdAt, 0.5));

  // Likes, collects, watch later and history.
  const likes: PairPlan[] = [];
  const collects: PairPlan[] = [];
  const watchLater: PairPlan[] = [];
  const history: (PairPlan & { progressMs: number })[] = [];
  for (const u of users) {
    const n = u.isDemo ? 20 : rng.int(5, 20) + Math.floor(rng.next() ** 2 * 100);
    for (const i of rng.sample(videoCum, n, othersVideo(u))) {
      likes.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.4) });
    }
    for (const i of rng.sample(videoCum, rng.int(0, 4) + Math.floor(rng.next() ** 2 * 20), othersVideo(u))) {
      collects.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.3) });
    }
    for (const i of rng.sample(videoCum, rng.int(0, 6), othersVideo(u))) {
      watchLater.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.3) });
    }
    for (const i of rng.sample(videoCum, rng.int(8, 40))) {
      const v = videos[i]!;
      const progressMs = rng.chance(0.5) ? v.clip.durationMs : rng.int(500, v.clip.durationMs);
      history.push({ userId: u.id, targetId: v.id, createdAt: after(v.createdAt, 0.6), progressMs });
    }
  }
  const likesPerVideo = new Map<number, number>();
  for (const l of likes) likesPerVideo.set(l.targetId, (likesPerVideo.get(l.targetId) ?? 0) + 1);
  // Shares and plays are not rows here: fixed numbers, plays well above likes.
  const reach = videos.map((v) => {
    const liked = likesPerVideo.get(v.id) ?? 0;
    return { shareCount: Math.floor(liked * rng.next() * 0.6) + rng.int(0, 20), playCount: liked * rng.int(20, 150) + rng.int(50, 3000) };
  });

  // Comments with reply threads (parent_id = the root), some @mentions, a few deleted.
  const comments: CommentPlan[] = [];
  const commentText = (v: VideoPlan, by: UserPlan) => {
    if (rng.chance(0.08)) {
      const target = rng.chance(0.07) ? demo : users[rng.weighted(activeCum)]!;
      if (target !== by) return `@${target.nickname} ${rng.pick(MENTION_TAILS)}`;
    }
    const pool = rng.chance(0.55) ? CHANNELS[v.channelId].comments : GENERIC_COMMENTS;
    const first = rng.pick(pool);
    return rng.chance(0.2) ? `${first}，${rng.pick(GENERIC_COMMENTS)}` : first;
  };
  const addComment = (video: VideoPlan, user: UserPlan, text: string, createdAt: number, parent: CommentPlan | null, replyTo: UserPlan | null) => {
    const c: CommentPlan = {
      id: comments.length + 1,
      video,
      user,
      parentId: parent?.id ?? null,
      replyTo,
      text,
      createdAt,
      deletedAt: rng.chance(0.015) ? after(createdAt, 0.2) : null,
    };
    comments.push(c);
    return c;
  };
  const addReplies = (root: CommentPlan, n: number) => {
    const thread: UserPlan[] = [root.user];
    let last = root.createdAt;
    for (let r = 0; r < n; r++) {
      const author = root.video.author;
      const by = rng.chance(0.4) && author !== root.user ? author : users[rng.weighted(activeCum)]!;
      const candidates = thread.filter((u) => u !== by);
      const to = rng.chance(0.6) || candidates.length === 0 ? root.user : rng.pick(candidates);
      last = after(last, 0.5);
      addComment(root.video, by, by === author ? rng.pick(['谢谢支持', '感谢喜欢', ...REPLIES]) : rng.pick(REPLIES), last, root, to);
      thread.push(by);
    }
  };
  for (const v of videos) {
    const top = v.author.isDemo ? rng.int(5, 10) : Math.floor(rng.next() ** 1.3 * 14);
    for (let k = 0; k < top; k++) {
      const by = users[rng.weighted(activeCum)]!;
      const root = addComment(v, by, commentText(v, by), after(v.createdAt, 0.45), null, null);
      if (rng.chance(0.3)) addReplies(root, rng.int(1, 4));
    }
  }
  // The demo account's own comments, answered by others (its 回复 notifications).
  for (const i of rng.sample(videoCum, 6, othersVideo(demo))) {
    const v = videos[i]!;
    const root = addComment(v, demo, rng.pick(GENERIC_COMMENTS), after(Math.max(v.createdAt, ago(3 * DAY)), 0.6), null, null);
    let last = root.createdAt;
    for (let r = rng.int(1, 3); r > 0; r--) {
      last = after(last, 0.6);
      addComment(v, creators[rng.weighted(creatorCum)]!, rng.pick(REPLIES), last, root, demo);
    }
  }
  const commentLikes: PairPlan[] = [];
  for (const c of comments) {
    if (c.deletedAt !== null) continue;
    for (const j of rng.sample(activeCum, Math.floor(rng.next() ** 2.2 * 10))) {
      commentLikes.push({ userId: users[j]!.id, targetId: c.id, createdAt: after(c.createdAt, 0.5) });
    }
  }

  // Danmaku on a subset of videos, within each clip's duration.
  const danmaku: { videoId: number; userId: number; text: string; offsetMs: number; createdAt: number }[] = [];
  for (const v of videos) {
    if (!rng.chance(0.45)) continue;
    for (let k = rng.int(5, 20); k > 0; k--) {
      danmaku.push({
        videoId: v.id,
        userId: users[rng.weighted(activeCum)]!.id,
        text: rng.pick(DANMAKU),
        offsetMs: rng.int(0, Math.max(0, v.clip.durationMs - 500)),
        createdAt: after(v.createdAt, 0.5),
      });
    }
  }

  // Live rooms: ten on air, two ended.
  const liveRooms = rng.sample(creatorCum, 12).map((j, k) => {
    const host = creators[j]!;
    const clip = rng.pick(clipsFor(host.channel));
    const live = k < 10;
    return {
      id: k + 1,
      host,
      channelId: host.channel,
      title: rng.pick(CHANNELS[host.channel].liveTitles),
      clip,
      status: live ? ('live' as const) : ('ended' as const),
      viewerCount: live ? 50 + Math.floor(rng.next() ** 3 * 30_000) : 0,
      startedAt: live ? ago(rng.int(5, 240) * MINUTE) : ago(rng.int(1, 20) * DAY),
    };
  });
  const liveMessages = liveRooms.flatMap((room) =>
    Array.from({ length: rng.int(3, 8) }, () => ({
      roomId: room.id,
      userId: users[rng.weighted(activeCum)]!.id,
      text: rng.pick(LIVE_MESSAGES),
      createdAt: Math.floor(room.startedAt + rng.next() * Math.min(nowMs - room.startedAt, 2 * HOUR)),
    })),
  ).sort((x, y) => x.roomId - y.roomId || x.createdAt - y.createdAt);

  // Search history: queries from hashtags, title words, dramas and popular creators; half in the last 24 hours.
  const queryPool = [
    ...new Set([
      ...[...hashtagIds.keys()],
      ...CHANNEL_IDS.flatMap((c) => CHANNELS[c].a),
      ...THEATRE.map((d) => d.title),
      ...[...creators].sort((x, y) => y.weight - x.weight).slice(0, 8).map((u) => u.nickname),
    ]),
  ];
  for (let i = queryPool.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [queryPool[i], queryPool[j]] = [queryPool[j]!, queryPool[i]!];
  }
  const queryCum = cumulate(queryPool.map((_, i) => 1 / (i + 1) ** 0.9));
  const searches = Array.from({ length: 900 }, () => {
    const roll = rng.next();
    const offset = roll < 0.5 ? rng.next() * DAY : roll < 0.7 ? (1 + rng.next() * 2) * DAY : (3 + rng.next() * 27) * DAY;
    return {
      userId: rng.chance(0.6) ? users[rng.weighted(activeCum)]!.id : null,
      query: queryPool[rng.weighted(queryCum)]!,
      createdAt: ago(offset),
    };
  }).sort((x, y) => x.createdAt - y.createdAt);

  // Notifications of the demo account, derived from the rows above the way the services write them: one per actor,
  // kind and target (the latest wins), one per comment and recipient (a comment or reply notice stands for a mention).
  type NoticePlan = { actorId: number; kind: NoticeKind; videoId: number | null; commentId: number | null; text: string | null; createdAt: number };
  const noticeByTarget = new Map<string, NoticePlan>();
  const notice = (n: NoticePlan) => {
    if (n.actorId === demo.id) return;
    const key = `${n.actorId}:${n.kind}:${n.videoId}:${n.commentId}`;
    const had = noticeByTarget.get(key);
    if (!had || had.createdAt < n.createdAt) noticeByTarget.set(key, n);
  };
  const none = { videoId: null, commentId: null, text: null };
  for (const l of likes) {
    if (videos[l.targetId - 1]!.author === demo) notice({ ...none, actorId: l.userId, kind: 'like_video', videoId: l.targetId, createdAt: l.createdAt });
  }
  for (const c of comments) {
    if (c.deletedAt !== null || c.user === demo) continue;
    const base = { actorId: c.user.id, videoId: c.video.id, commentId: c.id, text: c.text, createdAt: c.createdAt };
    if (c.replyTo === demo) notice({ ...base, kind: 'reply' });
    else if (c.parentId === null && c.video.author === demo) notice({ ...base, kind: 'comment' });
    else if (c.text.includes(`@${DEMO_NICKNAME}`)) notice({ ...base, kind: 'mention' });
  }
  for (const l of commentLikes) {
    const c = comments[l.targetId - 1]!;
    if (c.user === demo) notice({ actorId: l.userId, kind: 'like_comment', videoId: c.video.id, commentId: c.id, text: c.text, createdAt: l.createdAt });
  }
  for (const d of danmaku) {
    if (videos[d.videoId - 1]!.author === demo) notice({ ...none, actorId: d.userId, kind: 'danmaku', videoId: d.videoId, text: d.text, createdAt: d.createdAt });
  }
  for (const f of follows.values()) {
    if (f.targetId === demo.id) notice({ ...none, actorId: f.userId, kind: 'follow', createdAt: f.createdAt });
  }
  const notifications = [...noticeByTarget.values()].sort((x, y) => x.createdAt - y.createdAt);

  // A few conversations of the demo account with friends who follow back, so 私信 has content.
  const conversations = demoFollows.slice(0, 4).map((friend, k) => {
    let t = ago(rng.int(1, 72) * HOUR);
    const lines = Array.from({ length: rng.int(2, 6) }, (_, m) => {
      t = Math.min(nowMs, t + rng.int(1, 120) * MINUTE);
      return { senderId: m % 2 === 0 ? friend.id : demo.id, text: rng.pick(MESSAGE_LINES), createdAt: t };
    });
    return { id: k + 1, userA: Math.min(demo.id, friend.id), userB: Math.max(demo.id, friend.id), lines };
  });
  const talk = (peer: UserPlan, lines: { from: UserPlan; text: string; minutesAgo: number }[]) => {
    conversations.push({
      id: conversations.length + 1,
      userA: Math.min(demo.id, peer.id),
      userB: Math.max(demo.id, peer.id),
      lines: lines.map((l) => ({ senderId: l.from.id, text: l.text, createdAt: ago(l.minutesAgo * MINUTE) })),
    });
    return conversations.length;
  };
  // A friend whose last messages the demo account has not read yet (the 私信 badge).
  const chatty = demoFollows[4]!;
  const unreadConversation = talk(chatty, [
    { from: demo, text: rng.pick(MESSAGE_LINES), minutesAgo: 300 },
    { from: chatty, text: DM_UNREAD_LINES[0], minutesAgo: 25 },
    { from: chatty, text: DM_UNREAD_LINES[1], minutesAgo: 24 },
  ]);
  // Someone the demo account follows who does not follow back and never answered: the one-message rule shows.
  const silent = demoFollows.slice(8).find((u) => !follows.has(`${u.id}:${demo.id}`))!;
  talk(silent, [{ from: demo, text: DM_FIRST_LINE, minutesAgo: 26 * 60 }]);
  // The demo account's own settings: everything read but the one conversation above; the second friend pinned.
  const demoSettings = conversations.map((c) => ({
    conversationId: c.id,
    pinned: c.id === 2,
    lastReadAt: c.id === unreadConversation ? c.lines[0]!.createdAt : c.lines[c.lines.length - 1]!.createdAt,
  }));

  return {
    users,
    videos,
    hashtagIds,
    series,
    comments,
    commentLikes,
    follows: [...follows.values()],
    likes,
    reach,
    collects,
    watchLater,
    history,
    danmaku,
    liveRooms,
    liveMessages,
    searches,
    notifications,
    conversations,
    demoSettings,
  };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Inserts rows in chunks: as one `INSERT … SELECT * FROM unnest($1::type[], …)` per chunk (a handful of
 * parameters instead of thousands, several times faster than VALUES lists), or as multi-row VALUES when
 * a column is itself an array (unnest would flatten it).
 */
async function insertAll(tx: Tx, table: PgTable, rows: Record<string, unknown>[], explicitIds = false): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]!);
  const types = keys.map((k) => columns[k]!.getSQLType());
  if (types.some((t) => t.endsWith(']'))) {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK) as never[];
      if (explicitIds) await tx.insert(table).overridingSystemValue().values(chunk);
      else await tx.insert(table).values(chunk);
    }
    return rows.length;
  }
  const names = sql.join(keys.map((k) => sql.identifier(columns[k]!.name)), sql`, `);
  const override = explicitIds ? sql` OVERRIDING SYSTEM VALUE` : sql``;
  for (let i = 0; i < rows.length; i += UNNEST_CHUNK) {
    const chunk = rows.slice(i, i + UNNEST_CHUNK);
    const arrays = keys.map((k, j) => sql`${sql.param(chunk.map((r) => r[k] ?? null))}::${sql.raw(types[j]!)}[]`);
    await tx.execute(sql`INSERT INTO ${table} (${names})${override} SELECT * FROM unnest(${sql.join(arrays, sql`, `)})`);
  }
  return rows.length;
}

/** Moves an identity sequence past the explicit ids the seed inserted. */
async function syncSequence(tx: DbOrTx, table: string): Promise<void> {
  await tx.execute(
    sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${sql.identifier(table)}), false)`,
  );
}

/** Seeds an empty database (no users) deterministically: same `now`, same rows. Returns the rows inserted per table. */
export async function seed(db: Db, opts: SeedOptions = {}): Promise<SeedSummary> {
  const nowMs = (opts.now ?? new Date()).getTime();
  const manifest = opts.manifest ?? loadManifest();
  // scrypt runs on libuv's thread pool while the rows are inserted; the demo row gets it at the end.
  const hashing = hashPassword(demoPassword());
  hashing.catch(() => {});
  const at = (ms: number) => new Date(ms);

  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(s.users);
    if (existing && existing.n > 0) throw new Error('seed: the database already has users');
    const [tagMax] = await tx.select({ max: sql<number>`coalesce(max(${s.hashtags.id}), 0)::int` }).from(s.hashtags);
    const known = await tx.select({ name: s.hashtags.name }).from(s.hashtags);
    const plan = buildPlan(nowMs, manifest, tagMax?.max ?? 0);
    const summary: SeedSummary = {};

    summary.users = await insertAll(
      tx,
      s.users,
      plan.users.map((u) => ({
        id: u.id,
        secUid: u.secUid,
        email: u.email,
        nickname: u.nickname,
        signature: u.signature,
        avatar: u.avatar,
        isDemo: u.isDemo,
        createdAt: at(u.createdAt),
      })),
      true,
    );
    const knownNames = new Set(known.map((k) => k.name));
    summary.hashtags = await insertAll(
      tx,
      s.hashtags,
      [...plan.hashtagIds]
        .filter(([name]) => !knownNames.has(name))
        .map(([name, id]) => ({ id, name, createdAt: at(nowMs - 60 * DAY) })),
      true,
    );
    // Tags that already existed keep their own ids.
    const tagIds = new Map(plan.hashtagIds);
    if (knownNames.size > 0) {
      for (const row of await tx.select({ id: s.hashtags.id, name: s.hashtags.name }).from(s.hashtags)) tagIds.set(row.name, row.id);
    }
    summary.videos = await insertAll(
      tx,
      s.videos,
      plan.videos.map((v) => {
        const desc = `${v.title} ${v.tags.map((t) => `#${t}`).join(' ')}`;
        return {
          id: v.id,
          authorId: v.author.id,
          channelId: v.channelId,
          desc,
          media: v.clip.video,
          poster: v.clip.poster,
          durationMs: v.clip.durationMs,
          width: v.clip.width,
          height: v.clip.height,
          sizeBytes: v.clip.bytes,
          ...plan.reach[v.id - 1]!,
          searchTokens: tokenize(`${desc} ${v.author.nickname}`),
          createdAt: at(v.createdAt),
        };
      }),
      true,
    );
    summary.video_hashtags = await insertAll(
      tx,
      s.videoHashtags,
      plan.videos.flatMap((v) => v.tags.map((t) => ({ videoId: v.id, hashtagId: tagIds.get(t)! }))),
    );
    summary.series = await insertAll(
      tx,
      s.series,
      plan.series.map((x) => ({
        id: x.id,
        authorId: x.author.id,
        kind: x.kind,
        title: x.title,
        description: x.description,
        cover: x.items[0]!.clip.poster,
        createdAt: at(x.items[0]!.createdAt),
      })),
      true,
    );
    summary.series_items = await insertAll(
      tx,
      s.seriesItems,
      plan.series.flatMap((x) => x.items.map((v, i) => ({ seriesId: x.id, videoId: v.id, position: i + 1 }))),
    );
    summary.comments = await insertAll(
      tx,
      s.comments,
      plan.comments.map((c) => ({
        id: c.id,
        videoId: c.video.id,
        userId: c.user.id,
        parentId: c.parentId,
        replyToUserId: c.replyTo?.id ?? null,
        text: c.text,
        deletedAt: c.deletedAt === null ? null : at(c.deletedAt),
        createdAt: at(c.createdAt),
      })),
      true,
    );
    const pairs = (rows: PairPlan[]) => rows.map((p) => ({ userId: p.userId, targetId: p.targetId, createdAt: at(p.createdAt) }));
    summary.comment_likes = await insertAll(tx, s.commentLikes, pairs(plan.commentLikes));
    summary.likes = await insertAll(tx, s.likes, pairs(plan.likes));
    summary.collects = await insertAll(tx, s.collects, pairs(plan.collects));
    summary.watch_later = await insertAll(tx, s.watchLater, pairs(plan.watchLater));
    summary.watch_history = await insertAll(
      tx,
      s.watchHistory,
      plan.history.map((h) => ({ userId: h.userId, videoId: h.targetId, progressMs: h.progressMs, watchedAt: at(h.createdAt) })),
    );
    summary.follows = await insertAll(
      tx,
      s.follows,
      plan.follows.map((f) => ({ followerId: f.userId, followeeId: f.targetId, createdAt: at(f.createdAt) })),
    );
    summary.danmaku = await insertAll(tx, s.danmaku, plan.danmaku.map((d) => ({ ...d, createdAt: at(d.createdAt) })));
    summary.live_rooms = await insertAll(
      tx,
      s.liveRooms,
      plan.liveRooms.map((r) => ({
        id: r.id,
        hostId: r.host.id,
        channelId: r.channelId,
        title: r.title,
        cover: r.clip.poster,
        media: r.clip.video,
        status: r.status,
        viewerCount: r.viewerCount,
        startedAt: at(r.startedAt),
      })),
      true,
    );
    summary.live_messages = await insertAll(tx, s.liveMessages, plan.liveMessages.map((m) => ({ ...m, createdAt: at(m.createdAt) })));
    // Only the newest few of each kind are unseen: every filter has something new, and a badge in the hundreds
    // would say nobody ever opens the panel.
    const unseen = new Set<(typeof plan.notifications)[number]>();
    const perKind = new Map<string, number>();
    for (const n of [...plan.notifications].reverse()) {
      const k = perKind.get(n.kind) ?? 0;
      if (k < UNREAD_PER_KIND) unseen.add(n);
      perKind.set(n.kind, k + 1);
    }
    summary.notifications = await insertAll(
      tx,
      s.notifications,
      plan.notifications.map((n) => ({
        userId: plan.users[0]!.id,
        ...n,
        readAt: unseen.has(n) ? null : at(Math.min(nowMs, n.createdAt + HOUR)),
        createdAt: at(n.createdAt),
      })),
    );
    summary.search_log = await insertAll(tx, s.searchLog, plan.searches.map((q) => ({ ...q, createdAt: at(q.createdAt) })));
    summary.conversations = await insertAll(
      tx,
      s.conversations,
      plan.conversations.map((c) => ({
        id: c.id,
        userA: c.userA,
        userB: c.userB,
        lastMessageAt: at(c.lines[c.lines.length - 1]!.createdAt),
        createdAt: at(c.lines[0]!.createdAt),
      })),
      true,
    );
    summary.messages = await insertAll(
      tx,
      s.messages,
      plan.conversations.flatMap((c) => c.lines.map((m) => ({ conversationId: c.id, ...m, createdAt: at(m.createdAt) }))),
    );

    summary.conversation_settings = await insertAll(
      tx,
      s.conversationSettings,
      plan.demoSettings.map((c) => ({ ...c, userId: plan.users[0]!.id, lastReadAt: at(c.lastReadAt) })),
    );

    await tx.update(s.users).set({ passwordHash: await hashing }).where(eq(s.users.id, plan.users[0]!.id));
    for (const table of ['users', 'hashtags', 'videos', 'series', 'comments', 'live_rooms', 'conversations']) {
      await syncSequence(tx, table);
    }
    await recountAll(tx);
    return summary;
  });
}
