/** Reading series: 合集 (mix) and the theatre's short dramas. */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { collects, series, seriesItems, users, videos } from '../db/schema.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { bounds, selectCards, toPage, type Page, type Paged, type VideoCard } from './video-cards.ts';
import { visibleWorks } from './visibility.ts';

export interface SeriesCard {
  id: number;
  kind: 'mix' | 'theatre';
  title: string;
  description: string;
  cover: string;
  itemCount: number;
  firstVideoId: number | null;
  author: { secUid: string; nickname: string; avatar: string };
}

/** The page a series plays on: a 合集's own page, a 放映厅 drama's. */
export function seriesPath(x: Pick<SeriesCard, 'id' | 'kind'>): string {
  return x.kind === 'mix' ? `/collection/${x.id}` : `/vs/${x.id}`;
}

/** Series of one kind, newest first. */
export async function listSeries(kind: 'mix' | 'theatre', count = 24): Promise<SeriesCard[]> {
  return selectSeriesInfo()
    .where(eq(series.kind, kind))
    .orderBy(desc(series.createdAt), desc(series.id))
    .limit(Math.min(Math.max(count, 1), 50));
}

export interface SeriesInfo extends SeriesCard {
  createdAt: Date;
  author: UserCard;
}

function selectSeriesInfo() {
  return db()
    .select({
      id: series.id,
      kind: series.kind,
      title: series.title,
      description: series.description,
      cover: series.cover,
      itemCount: series.itemCount,
      createdAt: series.createdAt,
      // The first episode everyone may see, as seriesVideos lists them.
      firstVideoId: sql<
        number | null
      >`(select ${seriesItems.videoId} from ${seriesItems} join ${videos} on ${videos.id} = ${seriesItems.videoId}
        where ${seriesItems.seriesId} = ${series.id} and ${visibleWorks(null)} order by ${seriesItems.position} limit 1)`,
      author: userCardColumns,
    })
    .from(series)
    .innerJoin(users, eq(users.id, series.authorId))
    .$dynamic();
}

/** One series (合集 or theatre drama), or null. */
export async function getSeries(id: number): Promise<SeriesInfo | null> {
  const [row] = await selectSeriesInfo().where(eq(series.id, id));
  return row ?? null;
}

/** How many 合集 a user made (their profile shows a 合集 tab when they have one). */
export async function mixCount(authorId: number): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(series)
    .where(and(eq(series.authorId, authorId), eq(series.kind, 'mix')));
  return row?.n ?? 0;
}

/** The series of `ids` that exist, in no particular order. */
export async function getSeriesMany(ids: number[]): Promise<SeriesInfo[]> {
  if (ids.length === 0) return [];
  return selectSeriesInfo().where(inArray(series.id, ids));
}

/** A user's series (of one kind when `kind` is given), newest first. */
export async function seriesByAuthor(
  authorId: number,
  page: Page = {},
  kind?: SeriesCard['kind'],
): Promise<Paged<SeriesInfo>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await selectSeriesInfo()
    .where(and(eq(series.authorId, authorId), kind ? eq(series.kind, kind) : undefined))
    .orderBy(desc(series.createdAt), desc(series.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/**
 * The 合集 a user collected from: collects are kept per video, so a mix counts as collected once the user collected one
 * of its episodes that they may still see; the latest such collect first.
 */
export async function mixesCollectedBy(userId: number, page: Page = {}): Promise<Paged<SeriesInfo>> {
  const { offset, limit } = bounds(page, 20);
  const lastCollect = sql`(select max(${collects.createdAt}) from ${collects}
    join ${seriesItems} on ${seriesItems.videoId} = ${collects.targetId} join ${videos} on ${videos.id} = ${collects.targetId}
    where ${collects.userId} = ${userId} and ${seriesItems.seriesId} = ${series.id} and ${visibleWorks(userId)})`;
  const rows = await selectSeriesInfo()
    .where(and(eq(series.kind, 'mix'), sql`${lastCollect} is not null`))
    .orderBy(desc(lastCollect), desc(series.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/** A series' live videos in episode order. */
export async function seriesVideos(seriesId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await selectCards(null)
    .innerJoin(seriesItems, and(eq(seriesItems.videoId, videos.id), eq(seriesItems.seriesId, seriesId)))
    .orderBy(asc(seriesItems.position), asc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}
