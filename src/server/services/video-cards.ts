/** The one shape in which services hand videos to pages and API shapers, and the select that fills it. */
import { and, eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { users, videos } from '../db/schema.ts';

export interface AuthorRef {
  id: number;
  secUid: string;
  nickname: string;
  avatar: string;
}

export interface VideoCard {
  id: number;
  desc: string;
  channelId: number;
  media: string;
  poster: string;
  durationMs: number;
  width: number;
  height: number;
  diggCount: number;
  commentCount: number;
  collectCount: number;
  shareCount: number;
  playCount: number;
  createdAt: Date;
  author: AuthorRef;
}

/** Columns of a VideoCard, for `db().select(cardColumns)`. */
export const cardColumns = {
  id: videos.id,
  desc: videos.desc,
  channelId: videos.channelId,
  media: videos.media,
  poster: videos.poster,
  durationMs: videos.durationMs,
  width: videos.width,
  height: videos.height,
  diggCount: videos.diggCount,
  commentCount: videos.commentCount,
  collectCount: videos.collectCount,
  shareCount: videos.shareCount,
  playCount: videos.playCount,
  createdAt: videos.createdAt,
  author: { id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
};

/** A select of live (not deleted) videos joined with their authors. */
export function selectCards() {
  return db()
    .select(cardColumns)
    .from(videos)
    // Only published, public works are listed. In the join, not the where: a caller's .where() replaces the where.
    .innerJoin(users, and(eq(users.id, videos.authorId), eq(videos.status, 'published'), eq(videos.visibility, 'public')))
    .where(sql`${videos.deletedAt} is null`)
    .$dynamic();
}

/** Page bounds shared by every list: a cursor (offset) and a count, clamped. */
export interface Page {
  cursor?: number;
  count?: number;
}

export function bounds(page: Page, fallback = 20): { offset: number; limit: number } {
  const limit = Math.min(Math.max(Math.trunc(page.count ?? fallback), 1), 50);
  const offset = Math.max(Math.trunc(page.cursor ?? 0), 0);
  return { offset, limit };
}

/** A page of results with Douyin-style paging fields. */
export interface Paged<T> {
  items: T[];
  cursor: number;
  hasMore: boolean;
}

/** Turns `limit + 1` fetched rows into a page (the extra row only says there is more). */
export function toPage<T>(rows: T[], offset: number, limit: number): Paged<T> {
  return { items: rows.slice(0, limit), cursor: offset + Math.min(rows.length, limit), hasMore: rows.length > limit };
}
