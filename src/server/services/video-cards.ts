/** The one shape in which services hand videos to pages and API shapers, and the select that fills it. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { db, numberPlaceholder, onDbSwitch } from '../db/client.ts';
import { users, videos } from '../db/schema.ts';
import type { Visibility } from '../../shared/studio.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { cursorKey, encodeCursor, finite, type KeyPart } from './list-cursor.ts';
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

/**
 * The name given to drizzle's prepared queries: none. The pool names a repeated text on each connection (client.ts),
 * unless statements must stay unnamed there (behind a pooler in transaction mode).
 */
const UNNAMED = undefined as unknown as string;

/**
 * A reader of the cards among `ids` that a viewer may see (selectCards' rule) and that meet `where` for a member, in no
 * particular order. Its two statements (a visitor's, a member's) are built and compiled once per database and then
 * run with the viewer and the ids as parameters: building selectCards' query with the viewer rules cost about a
 * millisecond of the process's one thread per call (a fifth of a new member's whole feed read), and that thread is
 * what requests arriving together wait for.
 */
export function cardsByIds(where?: (viewerId: number) => SQL | undefined) {
  let visitor: ReturnType<typeof prepareCards> | undefined;
  let member: ReturnType<typeof prepareCards> | undefined;
  onDbSwitch(() => (visitor = member = undefined));
  const ids = sql`${videos.id} = any (${sql.placeholder('ids')}::int[])`;
  const viewer = numberPlaceholder('viewer');
  return async (list: readonly number[], viewerId: number | null): Promise<VideoCard[]> => {
    if (!list.length) return [];
    if (viewerId === null) return (visitor ??= prepareCards(null, ids)).execute({ ids: list });
    return (member ??= prepareCards(viewer, and(ids, where?.(viewer)))).execute({ viewer: viewerId, ids: list });
  };
}

const prepareCards = (viewerId: number | null, where: SQL | undefined) => selectCards(viewerId, where).prepare(UNNAMED);

/**
 * Where a list page starts: `cursor`, the opaque position a previous page answered (list-cursor.ts), or `skip`, a count
 * of items from the top for doors whose contract is a page number or an offset (Family B, refresh_index), at most
 * MAX_SKIP; and how many items (1 to 50).
 */
export interface Page {
  cursor?: string;
  skip?: number;
  count?: number;
}

/** The deepest a page number or offset reaches; past it a list answers empty (keyset cursors go on for ever). */
export const MAX_SKIP = 10_000;

/** A page's size: `count` clamped to 1..50, else `fallback`. */
export function pageLimit(page: Page, fallback = 20): number {
  return Math.min(Math.max(Math.trunc(page.count ?? fallback), 1), 50);
}

/** The row counts a page's statement reads (see pageRows): the default pages' sizes and one more, and the largest. */
const PAGE_ROWS = [11, 21, 25, 51] as const;

/**
 * How many rows a page of `limit` items reads, for a LIMIT written into the statement's text (limitLiteral): the page
 * and one more (is there a next page?), rounded up to one of PAGE_ROWS, so that a few texts serve every page size a
 * client may ask for and the process's named statements are not spent on them. keyedPage and toPage drop the rows
 * past the one more.
 */
export function pageRows(limit: number): number {
  return PAGE_ROWS.find((n) => n >= limit + 1) ?? limit + 1;
}

/** A page's `skip`, clamped to 0..MAX_SKIP + 1 (past MAX_SKIP nothing is read). */
export function skipOf(page: Page): number {
  return Math.min(Math.max(Math.trunc(page.skip ?? 0), 0), MAX_SKIP + 1);
}

/** A page of results with Douyin-style paging fields: `cursor` goes back as the next page's cursor. */
export interface Paged<T> {
  items: T[];
  cursor: string;
  hasMore: boolean;
}

/** An empty page that keeps the caller's position. */
export function emptyPage<T>(page: Page = {}): Paged<T> {
  return { items: [], cursor: page.cursor ?? '0', hasMore: false };
}

/**
 * Turns `limit + 1` rows fetched in the list's order into a page (the extra row only says there is more); the cursor
 * is the key of the page's last row in list `kind`.
 */
export function keyedPage<T>(rows: T[], limit: number, kind: string, keyOf: (row: T) => KeyPart[], page: Page = {}) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const cursor = last ? encodeCursor(kind, keyOf(last)) : (page.cursor ?? '0');
  return { items, cursor, hasMore: rows.length > limit } satisfies Paged<T>;
}

/**
 * Bounds of a list still paged by position, with the offset inside its cursor: lists whose whole result is a bounded
 * pool ranked per request (search's at most 1,000 matches), or a person's own short lists.
 */
export function bounds(page: Page, fallback = 20): { offset: number; limit: number } {
  const key = cursorKey(page.cursor, 'o', 1);
  const offset = key ? Math.min(Math.max(finite(key[0]!), 0), MAX_SKIP + 1) : skipOf(page);
  return { offset, limit: pageLimit(page, fallback) };
}

/** Turns `limit + 1` fetched rows into a page of a positional list (see `bounds`). */
export function toPage<T>(rows: T[], offset: number, limit: number): Paged<T> {
  const next = offset + Math.min(rows.length, limit);
  return { items: rows.slice(0, limit), cursor: encodeCursor('o', [next]), hasMore: rows.length > limit };
}

/** A timestamp column in microseconds since 1970 (a Date keeps only milliseconds; a key must name a row's time exactly). */
export const micros = (column: SQL | AnyPgColumn) =>
  sql<string>`(extract(epoch from ${column}) * 1000000)::bigint`.mapWith(Number);

/** The timestamp a key's microseconds name. */
export const fromMicros = (us: KeyPart) =>
  sql`('epoch'::timestamptz + ${finite(us)}::bigint * interval '1 microsecond')`;
