/**
 * The recommend feed (推荐). A visitor reads the popular order down its index. A viewer's feed is a run of windows, each
 * a bounded candidate set ranked in memory (feed-ranker.ts): window 0 holds the pools of feed-candidates.ts (followed
 * authors, affinity, fresh, popular, discovery), and each later window the next slice of the popular order that window
 * 0 did not hold, so scrolling goes on through everything while no request ranks more than a few hundred works.
 */
import { onDbSwitch } from '../db/client.ts';
import { spreadAuthors } from '../../shared/author-spread.ts';
import type { FeedReason } from '../../shared/feed-reason.ts';
import { CHANNEL_IDS } from './channel-ids.ts';
import { gatherCandidates, popularSlice, viewerFilter, viewerSignals, type RankKey } from './feed-candidates.ts';
import { readLess, type Less } from './feed-less.ts';
import {
  lessen,
  lessTargets,
  RANK,
  rankCandidates,
  rankedAfter,
  type Ranked,
  type ViewerSignals,
} from './feed-ranker.ts';
import { invalid } from '../errors.ts';
import { cursorKey, encodeCursor, finite, parseCursor, score, type KeyPart } from './list-cursor.ts';
import { POPULAR_KIND, popularCards } from './rankings.ts';
import {
  emptyPage,
  MAX_SKIP,
  pageLimit,
  cardsByIds,
  skipOf,
  type Page,
  type Paged,
  type VideoCard,
} from './video-cards.ts';

/** A feed item and why it was picked (为什么推荐). */
export interface FeedCard extends VideoCard {
  reason: FeedReason;
}

/** Works in each window after window 0, and how many windows one page request may read past it. */
export const WINDOW = 200;
const WINDOWS_PER_PAGE = 4;

/** Where a viewer's feed stands: the window (0 = candidates), where that window starts in the popular order, and the last item's rank. */
interface Position {
  window: number;
  start: RankKey | null;
  key: number;
  id: number;
}

const TOP: Position = { window: 0, start: null, key: Infinity, id: Infinity };

function decode(token: string | undefined): Position | null {
  const k = cursorKey(token, 'feed', 5);
  if (!k) return null;
  const window = Math.trunc(finite(k[0]!));
  if (window < 0) throw invalid('error.badCursor');
  const start: RankKey | null = k[1] === null ? null : [score(k[1]!), finite(k[2]!)];
  return { window, start, key: score(k[3]!), id: score(k[4]!) };
}

const encode = (p: Position) =>
  encodeCursor('feed', [p.window, p.start?.[0] ?? null, p.start?.[1] ?? null, p.key, p.id] as KeyPart[]);

/**
 * The recommend feed. Visitors get engagement × freshness; a viewer's feed is also weighted by their channel and author
 * affinity (likes, collects, watch time, follows), lowered for authors and channels they marked 不感兴趣, without the
 * videos they marked, and with what they watched in the last 3 days (before the last 30 minutes) sunk. Ties go to the
 * newer id, so a viewer's feed is deterministic for a given database; no author twice in a row on a page. Each item
 * carries the pool and the signals that put it there.
 */
export async function recommend(viewerId: number | null, page: Page = {}): Promise<Paged<FeedCard>> {
  const limit = pageLimit(page, 10);
  // The page's HTML is one for every viewer (the visitors' order): a member's next page after it is the top of their
  // own ranking, and a visitor's after a member's cursor (logged out meanwhile) the top of the visitors' order; the
  // client leaves out what it already shows.
  const kind = page.cursor ? parseCursor(page.cursor)?.kind : undefined;
  if (kind === (viewerId === null ? 'feed' : POPULAR_KIND)) page = { ...page, cursor: undefined };
  if (viewerId === null) {
    const p = await popularCards(page, 10);
    const reason: FeedReason = { pool: 'popular', signals: ['engagement'] };
    const items = p.items.map(({ rank: _, ...card }) => ({ ...card, reason }));
    return { ...p, items: spreadAuthors(items, (r) => r.author.id) };
  }
  return viewerFeed(viewerId, page, limit);
}

type Placed = Ranked & { window: number; start: RankKey | null };

/** How long a viewer's window 0 is kept for the pages that follow the first, and for how many viewers at most. */
export const SESSION = { ttlMs: 5 * 60_000, viewers: 5_000 } as const;

// Window 0 as the first page ranked it, per viewer: the pages after it (a cursor) read the same ranking, so a like or
// a watch in between neither reshuffles the pages still to come nor costs the candidates' queries again. Per process:
// a page that reaches another app server ranks afresh.
const sessions = new Map<number, { at: number; signals: ViewerSignals; zero: Ranked[] }>();
onDbSwitch(() => sessions.clear());

/** The viewer's signals and ranked window 0: kept from their first page while a cursor follows it, else read now. */
async function windowZero(viewerId: number, following: boolean, nowMs: number) {
  const kept = sessions.get(viewerId);
  if (following && kept && nowMs - kept.at < SESSION.ttlMs) return kept;
  const signals = await viewerSignals(viewerId, nowMs);
  const zero = rankCandidates(await gatherCandidates(viewerId, signals, CHANNEL_IDS, nowMs), signals, nowMs);
  const session = { at: nowMs, signals, zero };
  sessions.delete(viewerId);
  sessions.set(viewerId, session);
  if (sessions.size > SESSION.viewers) sessions.delete(sessions.keys().next().value!);
  return session;
}

async function viewerFeed(viewerId: number, page: Page, limit: number): Promise<Paged<FeedCard>> {
  const from = decode(page.cursor);
  const skip = from ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const at = from ?? TOP;
  const want = skip + limit + 1;
  const nowMs = Date.now();
  // 减少此类 is read afresh for every page, so the page after the click already obeys it.
  const [{ signals, zero: kept }, less] = await Promise.all([
    windowZero(viewerId, from !== null, nowMs),
    readLess(viewerId),
  ]);
  const zero = lessen(kept, less);
  const out: Placed[] = [];
  const place = capLess(out, less, limit);
  let window = at.window;
  let start = at.start;
  let after = { key: at.key, id: at.id };
  if (window === 0) {
    for (const r of zero) if (rankedAfter(r, after.key, after.id)) place({ ...r, window: 0, start: null });
    window = 1;
    start = null;
    after = { key: Infinity, id: Infinity };
  }
  const exclude = zero.map((r) => r.id);
  const budget = WINDOWS_PER_PAGE + Math.ceil(skip / WINDOW);
  let ended = false;
  // Where a page that ends between windows resumes: the start of the next one.
  let boundary: Position | null = null;
  for (let read = 0; out.length < want && read < budget; read++) {
    const slice = await popularSlice(viewerId, signals, start, WINDOW, exclude);
    for (const r of lessen(rankCandidates(slice, signals, nowMs), less))
      if (rankedAfter(r, after.key, after.id)) place({ ...r, window, start });
    if (slice.length < WINDOW) {
      ended = true;
      break;
    }
    const end = slice[slice.length - 1]!;
    start = [end.score, end.id];
    window += 1;
    after = { key: Infinity, id: Infinity };
    boundary = { window, start, key: Infinity, id: Infinity };
  }
  const shown = out.slice(skip, skip + limit);
  const tail = shown[shown.length - 1];
  const position = tail ? { window: tail.window, start: tail.start, key: tail.key, id: tail.id } : boundary;
  const cards = await cardsFor(
    viewerId,
    shown.map((r) => r.id),
  );
  const items = shown.flatMap((r) => {
    const card = cards.get(r.id);
    return card ? [{ ...card, reason: r.reason }] : [];
  });
  return {
    // Only the page's own rows are spread: a row moved in from the next page would come again on it.
    items: spreadAuthors(items, (r) => r.author.id),
    cursor: position ? encode(position) : (page.cursor ?? '0'),
    // More ranked rows than the page took, or windows left unread.
    hasMore: out.length > skip + limit || !ended,
  };
}

/**
 * Places ranked works on `out`, page after page of `limit` (out[0] starts a page), leaving out a work of a 减少此类
 * channel or author once its page holds RANK.lessPerPage of them: left behind the page's end, it never comes back.
 */
function capLess(out: Placed[], less: Less, limit: number): (r: Placed) => void {
  const onPage = new Map<string, number>();
  let page = 0;
  return (r) => {
    const at = Math.floor(out.length / limit);
    if (at !== page) {
      page = at;
      onPage.clear();
    }
    const targets = lessTargets(r, less);
    if (targets.some((k) => (onPage.get(k) ?? 0) >= RANK.lessPerPage)) return;
    for (const k of targets) onPage.set(k, (onPage.get(k) ?? 0) + 1);
    out.push(r);
  };
}

/** The cards of the ids a viewer asks for that they may see and still want (a 不感兴趣 since the ranking leaves a page). */
const wantedCards = cardsByIds((viewerId) => viewerFilter(viewerId));

async function cardsFor(viewerId: number, ids: number[]): Promise<Map<number, VideoCard>> {
  return new Map((await wantedCards(ids, viewerId)).map((c) => [c.id, c]));
}
