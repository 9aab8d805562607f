/**
 * The viewer's actions on a video: like, collect, 稍后再看, share and 不感兴趣, each shown at once and settled by the
 * server. The API client loads on the first action, not with the page.
 */
import type { MessageKey } from '../i18n/zh-CN.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { hasSession, requireLogin } from './auth.ts';
import { takeIntent } from './early-clicks.ts';
import { patchStats as patch, statsOf, type VideoStats } from './video-stats.ts';
import { enqueueWrite } from './write-queue.ts';

let apiModule: Promise<typeof import('./api.ts')> | undefined;
const api = () => (apiModule ??= import('./api.ts'));

async function say(key: MessageKey, type: 'info' | 'success' | 'error' = 'success'): Promise<void> {
  const [{ t }, { toast }] = await Promise.all([import('../i18n/t.ts'), import('./toast.ts')]);
  toast(t(key), { type });
}

/**
 * Shows `change` at once and queues `call` behind earlier writes of the same kind (write-queue.ts); the latest write's
 * answer settles the counts, and a refused latest write is rolled back. Anonymous viewers get the login dialog instead.
 */
function write<T>(
  key: string,
  item: VideoItem,
  change: Partial<VideoStats>,
  call: () => Promise<T>,
  settle: (answer: T) => Partial<VideoStats>,
): Promise<boolean> {
  if (!requireLogin()) return Promise.resolve(false);
  const before = patch(item, change);
  return enqueueWrite(key, {
    send: call,
    settle: (answer) => patch(item, settle(answer)),
    rollback: () => patch(item, Object.fromEntries(Object.keys(change).map((k) => [k, before[k as keyof VideoStats]]))),
  });
}

/** Likes or unlikes; `onlyLike` (double-click, double space) never takes a like back. */
/** The count after turning a mark from `was` to `now`: unchanged when the click found it so already. */
function counted(count: number, was: boolean, now: boolean): number {
  return Math.max(0, count + (was === now ? 0 : now ? 1 : -1));
}

export function toggleLike(item: VideoItem, onlyLike = false): Promise<boolean> {
  const s = statsOf(item);
  // A click made before hydration meant what the button showed then (early-clicks.ts).
  const early = takeIntent('like', item.id);
  if (onlyLike && s.liked) return Promise.resolve(requireLogin());
  const liked = early ?? !s.liked;
  return write(
    `like:${item.id}`,
    item,
    { liked, digg: counted(s.digg, s.liked, liked) },
    async () =>
      (await api()).apiPost<{ user_digged: 0 | 1; digg_count: number }>('/aweme/v1/web/commit/item/digg/', {
        aweme_id: item.id,
        type: liked ? 1 : 0,
      }),
    (a) => ({ liked: a.user_digged === 1, digg: a.digg_count }),
  );
}

export function toggleCollect(item: VideoItem): Promise<boolean> {
  const s = statsOf(item);
  const collected = takeIntent('collect', item.id) ?? !s.collected;
  return write(
    `collect:${item.id}`,
    item,
    { collected, collect: counted(s.collect, s.collected, collected) },
    async () =>
      (await api()).apiPost<{ collect_stat: 0 | 1; collect_count: number }>('/aweme/v1/web/aweme/collect/', {
        aweme_id: item.id,
        action: collected ? 1 : 0,
      }),
    (a) => ({ collected: a.collect_stat === 1, collect: a.collect_count }),
  );
}

/** L: adds to 稍后再看, or takes it out again; says which. */
export async function toggleWatchLater(item: VideoItem): Promise<void> {
  const later = takeIntent('later', item.id) ?? !statsOf(item).later;
  const ok = await write(
    `later:${item.id}`,
    item,
    { later },
    async () =>
      (await api()).apiPost<{ in_watch_later: 0 | 1 }>(`/aweme/v1/web/aweme/watchlater/${later ? 'add' : 'remove'}/`, {
        aweme_id: item.id,
      }),
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
  const text =
    kind === 'link'
      ? url
      : (await import('../i18n/t.ts')).t('share.code', { nickname: item.author.nickname, desc: item.desc, url });
  if (!(await copy(text))) return say('toast.copyFailed', 'error');
  await say(kind === 'link' ? 'toast.shareCopied' : 'toast.shareCodeCopied');
  if (!hasSession()) return;
  patch(item, { share: statsOf(item).share + 1 });
  try {
    const a = await (
      await api()
    ).apiPost<{ share_count: number }>('/aweme/v1/web/aweme/share/', { aweme_id: item.id }, { quiet: true });
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
