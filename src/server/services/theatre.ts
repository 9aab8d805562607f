/** 放映厅: where a viewer stopped in a series, so its page continues there, and the series they watched. */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { series, seriesItems, videos, watchHistory } from '../db/schema.ts';
import { getSeriesMany, type SeriesInfo } from './series.ts';
import { bounds, selectCards, toPage, type Page, type Paged, type VideoCard } from './video-cards.ts';
import { visibleWorks } from './visibility.ts';

export interface Resume {
  videoId: number;
  /** 1-based episode number. */
  episode: number;
  progressMs: number;
}

/** The episode of `seriesId` the user watched last, with how far they got; null when they have not started it. */
export async function resumePoint(userId: number, seriesId: number): Promise<Resume | null> {
  const [row] = await db()
    .select({ videoId: watchHistory.videoId, episode: seriesItems.position, progressMs: watchHistory.progressMs })
    .from(watchHistory)
    .innerJoin(seriesItems, and(eq(seriesItems.videoId, watchHistory.videoId), eq(seriesItems.seriesId, seriesId)))
    .where(eq(watchHistory.userId, userId))
    .orderBy(desc(watchHistory.watchedAt))
    .limit(1);
  return row ?? null;
}

/** How far a member got in each episode of a series they watched, by video id (ms). */
export async function seriesProgress(userId: number, seriesId: number): Promise<Map<number, number>> {
  const rows = await db()
    .select({ videoId: watchHistory.videoId, progressMs: watchHistory.progressMs })
    .from(watchHistory)
    .innerJoin(seriesItems, and(eq(seriesItems.videoId, watchHistory.videoId), eq(seriesItems.seriesId, seriesId)))
    .where(eq(watchHistory.userId, userId));
  return new Map(rows.map((r) => [r.videoId, r.progressMs]));
}

/** A 放映厅 series a member watched: the series, the episode they watched last and how far. */
export interface WatchedSeries {
  series: SeriesInfo;
  episode: VideoCard;
  /** 1-based episode number. */
  position: number;
  progressMs: number;
  watchedAt: Date;
}

/**
 * The 放映厅 series `userId` watched in the last 30 days, the latest watch first, one entry per series with the
 * episode watched last; the cursor is the next offset.
 */
export async function theatreHistory(userId: number, page: Page = {}): Promise<Paged<WatchedSeries>> {
  const { offset, limit } = bounds(page, 20);
  const latest = db()
    .selectDistinctOn([seriesItems.seriesId], {
      seriesId: seriesItems.seriesId,
      videoId: seriesItems.videoId,
      position: seriesItems.position,
      progressMs: watchHistory.progressMs,
      watchedAt: watchHistory.watchedAt,
    })
    .from(watchHistory)
    .innerJoin(seriesItems, eq(seriesItems.videoId, watchHistory.videoId))
    .innerJoin(series, and(eq(series.id, seriesItems.seriesId), eq(series.kind, 'theatre')))
    .innerJoin(videos, eq(videos.id, watchHistory.videoId))
    .where(
      and(
        eq(watchHistory.userId, userId),
        sql`${watchHistory.watchedAt} > now() - interval '30 days'`,
        visibleWorks(userId),
      ),
    )
    .orderBy(seriesItems.seriesId, desc(watchHistory.watchedAt))
    .as('latest');
  const rows = await db()
    .select()
    .from(latest)
    .orderBy(desc(latest.watchedAt), desc(latest.seriesId))
    .limit(limit + 1)
    .offset(offset);
  const shown = rows.slice(0, limit);
  const [infos, cards] = await Promise.all([
    getSeriesMany(shown.map((r) => r.seriesId)),
    shown.length
      ? selectCards(
          userId,
          inArray(
            videos.id,
            shown.map((r) => r.videoId),
          ),
        )
      : Promise.resolve([]),
  ]);
  const card = new Map(cards.map((c) => [c.id, c]));
  const info = new Map(infos.map((s) => [s.id, s]));
  const items = shown.flatMap((r) => {
    const s = info.get(r.seriesId);
    const episode = card.get(r.videoId);
    return s && episode
      ? [{ series: s, episode, position: r.position, progressMs: r.progressMs, watchedAt: r.watchedAt }]
      : [];
  });
  return { items, cursor: toPage(shown, offset, limit).cursor, hasMore: rows.length > limit };
}
