/**
 * The recommend feed's ranker: a few hundred candidates (feed-candidates.ts) ranked in memory by one explainable rule,
 * each keeping why it is there (为什么推荐). Pure: no database, so the rule is tested and read apart from the SQL.
 */
import { FEED_POOLS, type FeedPool, type FeedReason, type FeedSignal } from '../../shared/feed-reason.ts';

/**
 * Weights of the ranker, all in one place so the ranking can be explained:
 * score = engagement × freshness (the stored ranking) × channel affinity × author affinity × 不感兴趣 bias ×
 * recently-watched drop.
 */
export const RANK = {
  /** What one of the viewer's signals on a video is worth: a like, a collect, a full watch. */
  like: 1,
  collect: 1.5,
  watch: 0.5,
  /** Channel affinity: 1 + channel × (the viewer's signals in the channel) / (all their signals + prior). */
  channel: 1.5,
  channelPrior: 3,
  /** Author affinity: 1 + follow (when following) + author × min(signals on the author's videos, authorCap). */
  follow: 0.6,
  author: 0.25,
  authorCap: 4,
  /** Each 不感兴趣 on an author's video multiplies the author's other videos by this; in a channel, by the next (at most 3 times). */
  dislikedAuthor: 0.4,
  dislikedChannel: 0.8,
  dislikedChannelCap: 3,
  /** A video watched recently, but not in this session (which would reshuffle the pages being read), sinks to this. */
  watched: 0.05,
  watchedWithinMs: 3 * 86_400_000,
  sessionMs: 30 * 60_000,
  /** 减少此类: a work of a channel or author the viewer wants less of sinks by this, and a page holds at most `lessPerPage` of each. */
  less: 0.05,
  lessPerPage: 1,
} as const;

/** What the viewer's own activity says, read once per page (feed-candidates.ts). */
export interface ViewerSignals {
  /** Signal weight (likes, collects, watch time) per channel and per author, and in all. */
  channel: Map<number, number>;
  author: Map<number, number>;
  total: number;
  /** 不感兴趣 marks per author and per channel (the latter capped). */
  dislikedAuthor: Map<number, number>;
  dislikedChannel: Map<number, number>;
  /** When the viewer watched each work they watched within RANK.watchedWithinMs (ms), the candidates' watchedAt. */
  watched: Map<number, number>;
  /**
   * Every work the viewer marked 不感兴趣, when that is all they keep out of their feed (they block and mute nobody, and
   * the signals read all their marks): the candidates are then screened against it in memory. Absent otherwise.
   */
  onlyDisliked?: ReadonlySet<number>;
}

/** A candidate as the pools found it. */
export interface Candidate {
  id: number;
  authorId: number;
  channelId: number;
  /** The stored ranking score: ln(engagement) + age in 3-day units (rankings.ts); -Infinity without engagement. */
  score: number;
  pool: FeedPool;
  /** The viewer follows its author. */
  followed: boolean;
  /** When the viewer last watched it (ms), if ever. */
  watchedAt: number | null;
  /** The viewer's own work. */
  own: boolean;
}

/** A ranked candidate: its order key (ln of the score, so products stay in range) and why it is there. */
export interface Ranked {
  id: number;
  authorId: number;
  channelId: number;
  key: number;
  reason: FeedReason;
}

// The affinity pool's signal is the channel or the author whose weight brought it, added by weigh() below.
const POOL_SIGNAL: Record<FeedPool, FeedSignal | null> = {
  follow: 'follow',
  own: 'own',
  affinity: null,
  fresh: 'fresh',
  popular: 'engagement',
  explore: 'explore',
};

/** One candidate's multiplier and the signals behind it. */
function weigh(c: Candidate, s: ViewerSignals, nowMs: number): { factor: number; signals: FeedSignal[] } {
  const signals = new Set<FeedSignal>();
  const pooled = POOL_SIGNAL[c.pool];
  if (pooled) signals.add(pooled);
  const channelWeight = s.channel.get(c.channelId) ?? 0;
  const authorWeight = s.author.get(c.authorId) ?? 0;
  const channel = 1 + (RANK.channel * channelWeight) / (s.total + RANK.channelPrior);
  const author = 1 + (c.followed ? RANK.follow : 0) + RANK.author * Math.min(authorWeight, RANK.authorCap);
  const na = s.dislikedAuthor.get(c.authorId) ?? 0;
  const nc = Math.min(s.dislikedChannel.get(c.channelId) ?? 0, RANK.dislikedChannelCap);
  const disliked = RANK.dislikedAuthor ** na * RANK.dislikedChannel ** nc;
  const age = c.watchedAt === null ? null : nowMs - c.watchedAt;
  const watched = age !== null && age < RANK.watchedWithinMs && age > RANK.sessionMs ? RANK.watched : 1;
  if (channelWeight > 0) signals.add('channel');
  if (authorWeight > 0) signals.add('author');
  if (c.followed) signals.add('follow');
  if (c.own) signals.add('own');
  if (Number.isFinite(c.score)) signals.add('engagement');
  if (disliked < 1) signals.add('disliked');
  if (watched < 1) signals.add('watched');
  return { factor: channel * author * disliked * watched, signals: [...signals] };
}

/**
 * Ranks candidates by score × affinity, best first; ties go to the newer id, so a viewer's feed is deterministic for
 * a given database. A video found by several pools is credited to the first pool of FEED_POOLS' order.
 */
export function rankCandidates(candidates: Candidate[], s: ViewerSignals, nowMs = Date.now()): Ranked[] {
  const seen = new Map<number, Candidate>();
  for (const c of candidates) {
    const known = seen.get(c.id);
    if (!known || FEED_POOLS.indexOf(c.pool) < FEED_POOLS.indexOf(known.pool)) seen.set(c.id, c);
  }
  const ranked = [...seen.values()].map((c) => {
    const { factor, signals } = weigh(c, s, nowMs);
    return {
      id: c.id,
      authorId: c.authorId,
      channelId: c.channelId,
      key: c.score + Math.log(factor),
      reason: { pool: c.pool, signals },
    };
  });
  return ranked.sort(compareRanked);
}

/** What the viewer wants less of (减少此类): channel ids and author ids. */
export interface LessOf {
  channels: ReadonlySet<number>;
  authors: ReadonlySet<number>;
}

/** The 减少此类 targets of a ranked work ('c' channel, 'a' author ids), none when the viewer wants no less of it. */
export function lessTargets(r: { channelId: number; authorId: number }, less: LessOf): string[] {
  const out: string[] = [];
  if (less.channels.has(r.channelId)) out.push(`c${r.channelId}`);
  if (less.authors.has(r.authorId)) out.push(`a${r.authorId}`);
  return out;
}

/**
 * Applies 减少此类 to a ranking, kept apart from rankCandidates so that it reads the viewer's choice of a moment ago
 * on a ranking made earlier: the works of those channels and authors sink by RANK.less, re-sorted. The per-page cap
 * is the feed's (feed.ts), which knows where a page ends.
 */
export function lessen(ranked: readonly Ranked[], less: LessOf): Ranked[] {
  if (!less.channels.size && !less.authors.size) return [...ranked];
  return ranked
    .map((r) =>
      lessTargets(r, less).length
        ? {
            ...r,
            key: r.key + Math.log(RANK.less),
            reason: { ...r.reason, signals: [...r.reason.signals, 'less' as const] },
          }
        : r,
    )
    .sort(compareRanked);
}

/** Best first: higher key, then the newer id. */
export function compareRanked(a: { key: number; id: number }, b: { key: number; id: number }): number {
  // Not b.key - a.key: two works without engagement both have -Infinity, whose difference is NaN.
  if (a.key === b.key) return b.id - a.id;
  return a.key < b.key ? 1 : -1;
}

/** Whether `r` comes after the position (key, id) in ranked order. */
export function rankedAfter(r: { key: number; id: number }, key: number, id: number): boolean {
  return r.key < key || (r.key === key && r.id < id);
}
