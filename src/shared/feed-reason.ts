/**
 * Why the recommend feed picked a video (为什么推荐): the pool that brought it among the candidates and the signals that
 * weighed on its rank. Browser-safe, so a page or island can say it in words.
 */

/** Where a candidate came from, in the order a video found in several is credited to the first. */
export const FEED_POOLS = ['follow', 'own', 'affinity', 'fresh', 'popular', 'explore'] as const;
export type FeedPool = (typeof FEED_POOLS)[number];

/**
 * What raised or lowered it: `follow` (by an author the viewer follows), `channel` (a channel the viewer likes,
 * collects and watches in), `author` (an author whose works the viewer liked, collected or watched), `engagement` (its
 * likes, comments, collects and shares for its plays, with freshness), `fresh` (new), `explore` (from a channel the
 * viewer seldom watches), `own` (the viewer's own work), `watched` (watched in the last days: sunk), `disliked`
 * (不感兴趣 on the author or channel: sunk), `less` (减少此类 on its channel or author: sunk, one a page at most).
 */
export const FEED_SIGNALS = [
  'follow',
  'channel',
  'author',
  'engagement',
  'fresh',
  'explore',
  'own',
  'watched',
  'disliked',
  'less',
] as const;
export type FeedSignal = (typeof FEED_SIGNALS)[number];

export interface FeedReason {
  pool: FeedPool;
  signals: FeedSignal[];
}

/** What 减少此类 lowers: a channel, or an author. */
export const LESS_KINDS = ['channel', 'author'] as const;
export type LessKind = (typeof LESS_KINDS)[number];

/**
 * Why an item is in the viewer's feed, as the API and the 更多 menu say it: the pool (`code`), its words (`text`:
 * 你关注的作者, 你常看的美食, 热门…), the signals that weighed on its rank and the work's channel (what 减少此类 lowers).
 */
export interface ItemReason {
  code: FeedPool;
  text: string;
  signals: FeedSignal[];
  channelId: number;
  channelName: string;
}
