/**
 * The stored orderings, read instead of computed: engagement × freshness (an index on an immutable expression of a
 * video's counters, kept by every write to them, migration 0007's video_rank_score) and 热度 (hourly buckets and one
 * score per video, kept by triggers on likes, comments and collects in the writing statement).
 *
 * Neither needs a job for its decay: e^(−age / τ) multiplies every item alike, so an order by value × e^(−age / τ) is
 * an order by ln(value) + (made − 2000-01-01) / τ, which does not change as time passes. What time changes is the 7-day
 * window of 热度: heat_expire() moves it by the hour (a pg-boss schedule every minute, and the first read after an hour
 * turns when no worker has yet), so a 热度 shown is exactly its definition at the moment it is read.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { db, limitLiteral } from '../db/client.ts';
import { RANK_SCORE, users, videoHeat, videos } from '../db/schema.ts';
import { notBlockedBy } from './blocks.ts';
import { notMutedWork } from './mutes.ts';
import { cursorKey, finite, score } from './list-cursor.ts';
import {
  cardColumns,
  emptyPage,
  keyedPage,
  MAX_SKIP,
  pageLimit,
  pageRows,
  skipOf,
  type Page,
  type Paged,
  type VideoCard,
} from './video-cards.ts';
import { visibleWorks } from './visibility.ts';

/** The ranking's time unit: freshness falls by a factor e every 3 days (259,200 s). */
export const FRESHNESS_SECONDS = 259_200;
const EPOCH_MS = Date.UTC(2000, 0, 1);

/** A stored ranking score as engagement × freshness now (0 for a work nobody engaged with). */
export function engagementNow(rankScore: number, nowMs = Date.now()): number {
  return Math.exp(rankScore - (nowMs - EPOCH_MS) / 1000 / FRESHNESS_SECONDS);
}

/** Cursor kind of the popular order (首页, the visitors' feed, a channel). */
export const POPULAR_KIND = 'pop';
const POPULAR = POPULAR_KIND;

export interface RankedCard extends VideoCard {
  /** The stored ranking score (ln engagement + age in 3-day units). */
  rank: number;
}

/**
 * A page of the works everyone may see that meet `where`, in the popular order (engagement × freshness, then the newer
 * id), read down videos_rank_idx (or videos_channel_rank_idx when `where` names one channel) from the cursor; without
 * the works of authors `viewerId` blocked (blocks.ts), when a member asks.
 */
export async function popularCards(
  page: Page,
  fallback: number,
  where?: SQL,
  viewerId: number | null = null,
): Promise<Paged<RankedCard>> {
  const limit = pageLimit(page, fallback);
  const key = cursorKey(page.cursor, POPULAR, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const rows = await db()
    .select({ ...cardColumns, rank: sql<number>`${RANK_SCORE}`.mapWith(Number) })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(
      and(
        visibleWorks(null),
        where,
        notBlockedBy(viewerId, videos.authorId),
        notMutedWork(viewerId),
        key ? sql`(${RANK_SCORE}, ${videos.id}) < (${score(key[0]!)}::float8, ${finite(key[1]!)}::bigint)` : undefined,
      ),
    )
    .orderBy(desc(RANK_SCORE), desc(videos.id))
    .limit(limitLiteral(pageRows(limit)))
    .offset(skip);
  return keyedPage(rows, limit, POPULAR, (r) => [r.rank, r.id], page);
}

/** What one like, comment and collect is worth in 热度 when just made, how heat fades, and how far back it looks. */
export const HEAT = { like: 1, comment: 2, collect: 3, decaySeconds: 86_400, windowDays: 7 } as const;

export interface HotVideo extends VideoCard {
  /** 热度, as `hot` defines it. */
  heat: number;
}

/** The first hour the window counts at `nowMs`, in hours since 2000-01-01 UTC (as heat_hour() counts). */
export function windowStartHour(nowMs = Date.now()): number {
  return Math.floor((nowMs - HEAT.windowDays * 86_400_000 - EPOCH_MS) / 3_600_000);
}

/** Moves the 热度 window to the hour 7 days before now; returns how many videos it rescored. */
export async function expireHeat(): Promise<number> {
  const hour = windowStartHour();
  // In a transaction: a write, so on the primary even where reads go to a replica.
  const n = await db().transaction(async (tx) => {
    const { rows } = await tx.execute<{ n: number }>(sql`select heat_expire() as n`);
    return Number(rows[0]?.n ?? 0);
  });
  movedTo = Math.max(movedTo, hour);
  return n;
}

// The hour this process last moved the window to: a read moves it only when an hour has turned since, and readers
// that meet the same turn wait for one move.
let movedTo = -1;
let moving: Promise<number> | undefined;

function windowMoved(): Promise<unknown> | undefined {
  if (movedTo >= windowStartHour()) return undefined;
  moving ??= expireHeat().finally(() => (moving = undefined));
  return moving;
}

/**
 * 热点 and its 热度, the one definition every page and API shows:
 *   热度 = ⌈ Σ weight × e^(−age / 1 day) ⌉ over the video's likes (weight 1), comments not deleted (2) and collects (3)
 *   made since the start of the hour 7 days ago, age being how long ago each was made.
 * So a video's 热度 is never more than likes + 2 × comments + 3 × collects of the week, and a like made just now adds 1.
 * Videos are ranked by the unrounded sum, read down video_heat's index; the rule (and, for a member, the authors they
 * blocked) is applied before paging, so a hidden work neither shows nor shortens a page (which would read as the end).
 */
export async function hot(page: Page = {}, viewerId: number | null = null): Promise<Paged<HotVideo>> {
  const limit = pageLimit(page, 50);
  const key = cursorKey(page.cursor, 'heat', 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  await windowMoved();
  const rows = await db()
    .select({
      ...cardColumns,
      score: videoHeat.score,
      heatNow: sql<number>`exp(${videoHeat.score} - extract(epoch from now() - timestamptz '2000-01-01 00:00:00+00')::float8 / ${HEAT.decaySeconds}::float8)`,
    })
    .from(videoHeat)
    .innerJoin(videos, eq(videos.id, videoHeat.videoId))
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(
      and(
        visibleWorks(null),
        notBlockedBy(viewerId, videos.authorId),
        notMutedWork(viewerId),
        key
          ? sql`(${videoHeat.score}, ${videoHeat.videoId}) < (${score(key[0]!)}::float8, ${finite(key[1]!)}::bigint)`
          : undefined,
      ),
    )
    .orderBy(desc(videoHeat.score), desc(videoHeat.videoId))
    .limit(limitLiteral(pageRows(limit)))
    .offset(skip);
  const shown = rows.map(({ score: s, heatNow, ...card }) => ({
    // The epsilon keeps float noise in a sum of whole weights from rounding up past it.
    card: { ...card, heat: Math.ceil(Number(heatNow) - 1e-9) },
    key: [Number(s), card.id],
  }));
  const paged = keyedPage(shown, limit, 'heat', (r) => r.key, page);
  return { ...paged, items: paged.items.map((r) => r.card) };
}
