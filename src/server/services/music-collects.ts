/** 收藏 → 音乐: sounds a member collected. Every sound here is a work's original sound, so a sound's id is its work's. */
import { and, desc, eq } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { musicCollects, users, videos } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { bounds, cardColumns, toPage, type Page, type Paged, type VideoCard } from './video-cards.ts';
import { visibleWorks } from './visibility.ts';

export interface CollectedSound extends VideoCard {
  collectedAt: Date;
}

/** Collects (`on`) or lets go of the sound of work `musicId`; only the sound of a work the member may see. */
export async function setMusicCollect(userId: number, musicId: number, on: boolean): Promise<{ on: boolean }> {
  if (!on) {
    await db()
      .delete(musicCollects)
      .where(and(eq(musicCollects.userId, userId), eq(musicCollects.targetId, musicId)));
    return { on };
  }
  const [work] = await db()
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.id, musicId), visibleWorks(userId)));
  if (!work) throw notFound('error.musicNotFound');
  await db().insert(musicCollects).values({ userId, targetId: musicId }).onConflictDoNothing();
  return { on };
}

/** The sounds `userId` collected whose works they may still see, the latest collect first; the cursor is the next offset. */
export async function collectedMusic(userId: number, page: Page = {}): Promise<Paged<CollectedSound>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await db()
    .select({ ...cardColumns, collectedAt: musicCollects.createdAt })
    .from(musicCollects)
    .innerJoin(videos, eq(videos.id, musicCollects.targetId))
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(and(eq(musicCollects.userId, userId), visibleWorks(userId)))
    .orderBy(desc(musicCollects.createdAt), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}
