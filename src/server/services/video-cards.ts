/** The one shape in which services hand videos to pages and API shapers, and the select that fills it. */
import { and, eq, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { users, videos } from '../db/schema.ts';
import type { Visibility } from '../../shared/studio.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { visibleWorks } from './visibility.ts';

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
  /** The media file's size in bytes (a seeded clip's one rendition). */
  sizeBytes: number;
  diggCount: number;
  commentCount: number;
  collectCount: number;
  shareCount: number;
  playCount: number;
  createdAt: Date;
  /** Who may see it (a list holds only works its viewer may see). */
  visibility: Visibility;
  allowComments: boolean;
  author: UserCard;
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
  sizeBytes: videos.sizeBytes,
  diggCount: videos.diggCount,
  commentCount: videos.commentCount,
  collectCount: videos.collectCount,
  shareCount: videos.shareCount,
  playCount: videos.playCount,
  createdAt: videos.createdAt,
  visibility: videos.visibility,
  allowComments: videos.allowComments,
  author: userCardColumns,
};

/**
 * Cards of the works `viewerId` may see (never deleted ones) that also meet `where`, joined with their authors; lists
 * that are the same for everyone (discover, channels, hot, related, search, series) ask as nobody (null). The answer
 * cannot take another `.where()` (drizzle's would replace this one): put the condition here, joins after.
 */
export function selectCards(viewerId: number | null, where?: SQL) {
  return db()
    .select(cardColumns)
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(and(visibleWorks(viewerId), where));
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
