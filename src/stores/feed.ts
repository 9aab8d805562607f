/**
 * Videos as the player islands hold them, the viewer's counts and marks on each, and the actions beside a video
 * (like, collect, share, watch later, 不感兴趣, history). The API client loads on the first action, not with the page.
 */
import { atom, map } from 'nanostores';
import type { MessageKey } from '../i18n/zh-CN.ts';
import { COMMENT_COUNT_EVENT, type CommentCountDetail } from '../shared/comment-data.ts';
import { hasSavedToken, requireLogin, savedToken } from './auth.ts';
import { enqueueWrite } from './write-queue.ts';

export type FollowStatus = 0 | 1 | 2;

/** One video in a player: what the feed and the video page render. */
export interface VideoItem {
  id: string;
  desc: string;
  src: string;
  poster: string;
  /** Milliseconds. */
  duration: number;
  author: { secUid: string; nickname: string; avatar: string; follow: FollowStatus };
  digg: number;
  comment: number;
  collect: number;
  share: number;
  liked: boolean;
  collected: boolean;
}

/** The parts of a video that change while it is on screen. */
export interface VideoStats {
  liked: boolean;
  digg: number;
  collected: boolean;
  collect: number;
  share: number;
  comment: number;
  /** In 稍后再看 (the feed does not know at first; the first L adds). */
  later: boolean;
}

/** Live counts and marks by video id; a video not in here shows what it was rendered with. */
export const $stats = map<Record<string, VideoStats>>({});

/** A service card as pages hold it (structural, so this browser module needs nothing from the server). */
export interface CardLike {
  id: number;
  desc: string;
  media: string;
  poster: string;
  durationMs: number;
  diggCount: number;
  commentCount: number;
  collectCount: number;
  shareCount: number;
  author: { id: number; secUid: string; nickname: string; avatar: string };
}

/** A page's card with the viewer's marks, media paths turned into URLs by `url`. */
export function fromCard(card: CardLike, mark: { liked?: boolean; collected?: boolean; follow?: FollowStatus }, url: (path: string) => string): VideoItem {
  return {
    id: String(card.id),
    desc: card.desc,
    src: url(card.media),
    poster: url(card.poster),
    duration: card.durationMs,
    author: { secUid: card.author.secUid, nickname: card.author.nickname, avatar: url(card.author.avatar), follow: mark.follow ?? 0 },
    digg: card.diggCount,
    comment: card.commentCount,
    collect: card.collectCount,
    share: card.shareCount,
    liked: !!mark.liked,
    collected: !!mark.collected,
  };
}

/** An aweme of the Family A API. */
export interface Aweme {
  aweme_id: string;
  desc: string;
  author: { sec_uid: string; nickname: string; avatar_thumb: { url_list: string[] }; follow_status: FollowStatus };
  statistics: { digg_count: number; comment_count: number; collect_count: number; share_count: number };
  user_digged: 0 | 1;
  collect_stat: 0 | 1;
  video: { play_addr: { url_list: string[] }; cover: { url_list: string[] }; duration: number };
}

export function fromAweme(a: Aweme): VideoItem {
  return {
    id: a.aweme_id,
    desc: a.desc,
    src: a.video.play_addr.url_list[0] ?? '',
    poster: a.video.cover.url_list[0] ?? '',
    duration: a.video.duration,
    author: { secUid: a.author.sec_uid, nickname: a.author.nickname, avatar: a.author.avatar_thumb.url_list[0] ?? '', follow: a.author.follow_status },
    digg: a.statistics.digg_count,
    comment: a.statistics.comment_count,
    collect: a.statistics.collect_count,
    share: a.statistics.share_count,
    liked: a.user_digged === 1,
    collected: a.collect_stat === 1,
  };
}

/** The current counts and marks of `item`. */
export function statsOf(item: VideoItem, all: Record<string, VideoStats> = $stats.get()): VideoStats {
  return (
    all[item.id] ?? {
      liked: item.liked,
      digg: item.digg,
      collected: item.collected,
      collect: item.collect,
      share: item.share,
      comment: item.comment,
      later: false,
    }
  );
}

function patch(item: VideoItem, change: Partial<VideoStats>): VideoStats {
  const before = statsOf(item);
  $stats.setKey(item.id, { ...before, ...change });
  return before;
}

/** Comment counts announced by the comment islands (COMMENT_COUNT_EVENT), by video id. */
export const $commentCounts = map<Record<string, number>>({});

if (typeof window !== 'undefined') {
  addEventListener(COMMENT_COUNT_EVENT, (e) => {
    const { awemeId, count } = (e as CustomEvent<CommentCountDetail>).detail;
    $commentCounts.setKey(awemeId, count);
  });
}

let apiModule: Promise<typeof import('../client/api.ts')> | undefined;
const api = () => (apiModule ??= import('../client/api.ts'));

/** Whether the follow store has loaded: from then on every follow control on the page shows the shared FollowButton. */
export const $followLoaded = atom(false);

/** The follow store (with the API client), loaded on first use. */
export function loadFollow(): Promise<typeof import('./follow.ts')> {
  return import('./follow.ts').then((m) => {
    $followLoaded.set(true);
    return m;
  });
}

async function say(key: MessageKey, type: 'info' | 'success' | 'error' = 'success'): Promise<void> {
  const [{ t }, { toast }] = await Promise.all([import('../i18n/t.ts'), import('../client/toast.ts')]);
  toast(t(key), { type });
}

/**
 * Shows `change` at once and queues `call` behind earlier writes of the same kind (write-queue.ts); the latest write's
 * answer settles the counts, and a refused latest write is rolled back. Anonymous viewers get the login dialog instead.
 */
function write<T>(key: string, item: VideoItem, change: Partial<VideoStats>, call: () => Promise<T>, settle: (answer: T) => Partial<VideoStats>): Promise<boolean> {
  if (!requireLogin()) return Promise.resolve(false);
  const before = patch(item, change);
  return enqueueWrite(key, {
    send: call,
    settle: (answer) => patch(item, settle(answer)),
    rollback: () => patch(item, Object.fromEntries(Object.keys(change).map((k) => [k, before[k as keyof VideoStats]]))),
  });
}

/** Likes or unlikes; `onlyLike` (double-click, double space) never takes a like back. */
export function toggleLike(item: VideoItem, onlyLike = false): Promise<boolean> {
  const s = statsOf(item);
  if (onlyLike && s.liked) return Promise.resolve(requireLogin());
  const liked = !s.liked;
  return write(
    `like:${item.id}`,
    item,
    { liked, digg: Math.max(0, s.digg + (liked ? 1 : -1)) },
    async () => (await api()).apiPost<{ user_digged: 0 | 1; digg_count: number }>('/aweme/v1/web/commit/item/digg/', { aweme_id: item.id, type: liked ? 1 : 0 }),
    (a) => ({ liked: a.user_digged === 1, digg: a.digg_count }),
  );
}

export function toggleCollect(item: VideoItem): Promise<boolean> {
  const s = statsOf(item);
  const collected = !s.collected;
  return write(
    `collect:${item.id}`,
    item,
    { collected, collect: Math.max(0, s.collect + (collected ? 1 : -1)) },
    async () => (await api()).apiPost<{ collect_stat: 0 | 1; collect_count: number }>('/aweme/v1/web/aweme/collect/', { aweme_id: item.id, action: collected ? 1 : 0 }),
    (a) => ({ collected: a.collect_stat === 1, collect: a.collect_count }),
  );
}

/** L: adds to 稍后再看, or takes it out again; says which. */
export async function toggleWatchLater(item: VideoItem): Promise<void> {
  const later = !statsOf(item).later;
  const ok = await write(
    `later:${item.id}`,
    item,
    { later },
    async () => (await api()).apiPost<{ in_watch_later: 0 | 1 }>(`/aweme/v1/web/aweme/watchlater/${later ? 'add' : 'remove'}/`, { aweme_id: item.id }),
    (a) => ({ later: a.in_watch_later === 1 }),
  );
  if (ok) await say(later ? 'toast.watchLaterAdded' : 'toast.watchLaterRemoved');
}

/** The address a share link points at. */
export function shareUrl(item: VideoItem, origin = globalThis.location?.origin ?? ''): string {
  return `${origin}/video/${item.id}`;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an insecure origin, an old browser): the selection route still works in most.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;opacity:0;top:0;left:0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.('copy') ?? false;
    area.remove();
    return ok;
  }
}

/**
 * 分享 (a link) or V (a share code: the link inside a sentence): copies it and counts the share. Anyone may copy;
 * only a logged-in viewer's share is counted, as the API counts shares of accounts.
 */
export async function share(item: VideoItem, kind: 'link' | 'code' = 'link'): Promise<void> {
  const url = shareUrl(item);
  const text = kind === 'link' ? url : (await import('../i18n/t.ts')).t('share.code', { nickname: item.author.nickname, desc: item.desc, url });
  if (!(await copy(text))) return say('toast.copyFailed', 'error');
  await say(kind === 'link' ? 'toast.shareCopied' : 'toast.shareCodeCopied');
  if (!hasSavedToken()) return;
  patch(item, { share: statsOf(item).share + 1 });
  try {
    const a = await (await api()).apiPost<{ share_count: number }>('/aweme/v1/web/aweme/share/', { aweme_id: item.id }, { quiet: true });
    patch(item, { share: a.share_count });
  } catch {
    patch(item, { share: Math.max(0, statsOf(item).share - 1) });
  }
}

/** R: tells the ranker; resolves true when recorded (the feed then removes the video). */
export async function markNotInterested(item: VideoItem): Promise<boolean> {
  if (!requireLogin()) return false;
  try {
    await (await api()).apiPost('/aweme/v1/web/commit/dislike/item/', { aweme_id: item.id });
  } catch {
    return false;
  }
  await say('toast.notInterested', 'info');
  return true;
}

/** A next page joined to a list with no author twice in a row where another is at hand, seam included (as the server spreads a page). */
export function appendSpread(list: VideoItem[], next: VideoItem[]): VideoItem[] {
  const rest = [...next];
  const out = [...list];
  while (rest.length) {
    const prev = out.at(-1)?.author.secUid;
    const i = rest.findIndex((x) => x.author.secUid !== prev);
    out.push(...rest.splice(i === -1 ? 0 : i, 1));
  }
  return out;
}

export interface FeedPage {
  items: VideoItem[];
  hasMore: boolean;
}

/** One page of the recommend feed (refresh_index is 1-based and pages by `count`). */
export async function fetchFeed(refreshIndex: number, count: number): Promise<FeedPage> {
  const body = await (await api()).apiGet<{ aweme_list: Aweme[]; has_more: 0 | 1 }>('/aweme/v1/web/tab/feed/', { count, refresh_index: refreshIndex });
  return { items: body.aweme_list.map(fromAweme), hasMore: body.has_more === 1 };
}

/** How often progress of one video is written while it plays. */
export const HISTORY_EVERY_MS = 10_000;
const lastWrite = new Map<string, number>();
const lastProgress = new Map<string, number>();

/**
 * Records watch progress (观看历史) for a logged-in viewer: at most every HISTORY_EVERY_MS while playing, and always
 * on pause, on leaving a video (`final`) and on leaving the page (`unload`: a keepalive request that outlives it).
 */
export function reportProgress(id: string, seconds: number, when: 'tick' | 'final' | 'unload' = 'tick', now = Date.now()): boolean {
  const token = savedToken();
  if (!token || !Number.isFinite(seconds)) return false;
  if (when === 'tick' && now - (lastWrite.get(id) ?? 0) < HISTORY_EVERY_MS) return false;
  const form = { aweme_id: id, progress: Math.max(0, Math.round(seconds * 1000)) };
  // Leaving a video reports it twice (its pause, then the switch): the same place is written once.
  if (when !== 'tick' && lastProgress.get(id) === form.progress) return false;
  lastWrite.set(id, now);
  lastProgress.set(id, form.progress);
  if (when === 'unload') {
    // The API client's requests die with the page; a keepalive fetch may carry the Token header, unlike sendBeacon.
    void fetch('/api/aweme/v1/web/history/write/', {
      method: 'POST',
      keepalive: true,
      headers: { Token: token, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ aweme_id: form.aweme_id, progress: String(form.progress) }),
    }).catch(() => {});
  } else {
    void api()
      .then((m) => m.apiPost('/aweme/v1/web/history/write/', form, { quiet: true }))
      .catch(() => {});
  }
  return true;
}
