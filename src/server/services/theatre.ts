/** 放映厅: where a viewer stopped in a series, so its page continues there. */
import { and, desc, eq } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { seriesItems, watchHistory } from '../db/schema.ts';

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
