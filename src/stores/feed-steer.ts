/** 减少此类 from the 为什么推荐 panel: tells the ranker, which lowers the channel or the author from the next page on. */
import type { LessKind } from '../shared/feed-reason.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { requireLogin } from './auth.ts';

/** Asks for less of the item's channel or author; resolves true when recorded (the feed then drops what it holds ahead). */
export async function markLess(item: VideoItem, kind: LessKind): Promise<boolean> {
  if (!requireLogin()) return false;
  const [{ apiPost }, { t }, { toast }] = await Promise.all([
    import('./api.ts'),
    import('../i18n/t.ts'),
    import('./toast.ts'),
  ]);
  try {
    await apiPost('/aweme/v1/web/commit/dislike/less/', { aweme_id: item.id, kind });
  } catch {
    return false;
  }
  const key = kind === 'channel' ? 'toast.lessChannel' : 'toast.lessAuthor';
  toast(t(key, { channel: item.reason?.channelName ?? '' }), { type: 'info' });
  return true;
}
