/** Reading videos: feeds, channels, hot list, detail, related videos, follow feeds and profile tabs. */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { db, intLiteral } from '../db/client.ts';
import {
  collects,
  hashtags,
  likes,
  RANK_SCORE,
  users,
  videoHashtags,
  videos,
  watchHistory,
  watchLater,
} from '../db/schema.ts';
import { notBlockedBy } from './blocks.ts';
import { notMutedWork } from './mutes.ts';
import { cursorKey, finite, score, type KeyPart } from './list-cursor.ts';
import { popularCards, type RankedCard } from './rankings.ts';
import {
  cardColumns,
  emptyPage,
  fromMicros,
  keyedPage,
  MAX_SKIP,
  micros,
  pageLimit,
  cardsByIds,
  skipOf,
  type Page,
  type Paged,
  type VideoCard,
} from './video-cards.ts';
import { visibleWorks, type ProfileTab } from './visibility.ts';

export { CHANNEL_IDS, isChannel } from './channel-ids.ts';
export { recommend, type FeedCard } from './feed.ts';
export { expireHeat, HEAT, hot, type HotVideo } from './rankings.ts';

/** A ranked page without its ranking score (the score is only the cursor's business). */
function cardsOnly(p: Paged<RankedCard>): Paged<VideoCard> {
  return { ...p, items: p.items.map(({ rank: _, ...card }) => card) };
}

/** 首页 (discover): popular videos across all channels, engagement × freshness first; a member's without whom they blocked. */
export async function discover(page: Page = {}, viewerId: number | null = null): Promise<Paged<VideoCard>> {
  return cardsOnly(await popularCards(page, 24, undefined, viewerId));
}

/** One channel's videos, most engaging first; a member's without whom they blocked. */
export async function byChannel(
  channelId: number,
  page: Page = {},
  viewerId: number | null = null,
): Promise<Paged<VideoCard>> {
  // The channel in the text (one of eight): with a parameter, the generic plan cannot tell a big channel from a small
  // one, and PostgreSQL planned the page afresh at every call.
  return cardsOnly(await popularCards(page, 24, sql`${videos.channelId} = ${intLiteral(channelId)}`, viewerId));
}

/** Cards for the given ids that `viewerId` may see, in no particular order. */
export const byIds = cardsByIds();

export interface VideoDetail extends VideoCard {
  hashtags: string[];
  userDigged: boolean;
  userCollected: boolean;
}

/** One video with its hashtags and the viewer's like and collect state; null when unknown or hidden from the viewer (deleted). */
export async function getDetail(id: number, viewerId: number | null): Promise<VideoDetail | null> {
  // One round trip instead of three: the hashtags and the viewer's marks need only the id, so they are asked for beside
  // the card (a missing video costs those few small reads for nothing, which is rare).
  const [[card], tags, marks] = await Promise.all([
    byIds([id], viewerId),
    db()
      .select({ name: hashtags.name })
      .from(videoHashtags)
      .innerJoin(hashtags, eq(hashtags.id, videoHashtags.hashtagId))
      .where(eq(videoHashtags.videoId, id)),
    viewerId === null
      ? undefined
      : Promise.all([
          db()
            .select({ x: likes.userId })
            .from(likes)
            .where(and(eq(likes.userId, viewerId), eq(likes.targetId, id))),
          db()
            .select({ x: collects.userId })
            .from(collects)
            .where(and(eq(collects.userId, viewerId), eq(collects.targetId, id))),
        ]),
  ]);
  if (!card) return null;
  return { ...card, hashtags: tags.map((t) => t.name), userDigged: !!marks?.[0][0], userCollected: !!marks?.[1][0] };
}

/** How far related videos look: the newest postings of each of the video's hashtags, and the top of its channel. */
export const RELATED = { postingsPerTag: 150, channelTop: 100 } as const;

/**
 * Related videos: those sharing the most hashtags first, then the same channel, each by engagement × freshness; never
 * the video itself nor `exclude`. Candidates come from the hashtags' postings (the newest `postingsPerTag` of each)
 * and the channel's top, so the cost does not grow with the site; only those are ranked. For a member (`viewerId`),
 * without the works of authors they blocked.
 */
export async function related(
  id: number,
  page: Page & { exclude?: number[]; channelId?: number; viewerId?: number | null } = {},
): Promise<Paged<VideoCard>> {
  const limit = pageLimit(page, 12);
  const key = cursorKey(page.cursor, 'rel', 3);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  // The video page has the video already: its channel saves a round trip per render.
  const [base] =
    page.channelId !== undefined
      ? [{ channelId: page.channelId }]
      : await db().select({ channelId: videos.channelId }).from(videos).where(eq(videos.id, id));
  if (!base) return emptyPage(page);
  const excluded = [id, ...(page.exclude ?? [])];
  // The candidates, each with the hashtags it shares and its rank, ranked here; then the page's cards by id.
  const { rows: ranked } = await db().execute<{ id: number; shared: number; rank: number }>(sql`
    with tags as (select hashtag_id from video_hashtags where video_id = ${id}),
    candidates as (
      select p.video_id as id from tags cross join lateral (
        select video_id from video_hashtags p where p.hashtag_id = tags.hashtag_id
        order by video_id desc limit ${intLiteral(RELATED.postingsPerTag)}) p
      union
      (select v.id from videos v
        where v.channel_id = ${base.channelId} and v.deleted_at is null and v.status = 'published' and v.visibility = 'public'
        order by video_rank_score(v.digg_count, v.comment_count, v.collect_count, v.share_count, v.play_count, v.created_at) desc, v.id desc
        limit ${intLiteral(RELATED.channelTop)})),
    scored as (
      select c.id, (select count(*) from video_hashtags s where s.video_id = c.id and s.hashtag_id in (select hashtag_id from tags))::int as shared
      from candidates c where c.id <> all (${`{${excluded.join(',')}}`}::int[]))
    select s.id, s.shared, ${RANK_SCORE} as rank from scored s join ${videos} on ${videos.id} = s.id
    where ${and(visibleWorks(null), notBlockedBy(page.viewerId ?? null, videos.authorId), notMutedWork(page.viewerId ?? null))}
      and (${videos.channelId} = ${base.channelId} or s.shared > 0)
      ${key ? sql`and (s.shared, ${RANK_SCORE}, s.id) < (${finite(key[0]!)}::bigint, ${score(key[1]!)}::float8, ${finite(key[2]!)}::bigint)` : sql``}
    order by s.shared desc, rank desc, s.id desc
    limit ${limit + 1} offset ${skip}`);
  const cards = new Map(
    (
      await byIds(
        ranked.map((r) => Number(r.id)),
        null,
      )
    ).map((c) => [c.id, c]),
  );
  const rows = ranked.flatMap((r) => {
    const card = cards.get(Number(r.id));
    return card ? [{ ...card, shared: Number(r.shared), rank: Number(r.rank) }] : [];
  });
  const p = keyedPage(rows, limit, 'rel', (r) => [r.shared, r.rank, r.id], page);
  return { ...p, items: p.items.map(({ shared: _s, rank: _r, ...card }) => card) };
}

/** `(at, id)` strictly after a key of microseconds and id, in a newest-first list. */
const olderThan = (at: SQL | typeof videos.createdAt, idCol: SQL | typeof videos.id, key: KeyPart[]) =>
  sql`(${at}, ${idCol}) < (${fromMicros(key[0]!)}, ${finite(key[1]!)}::bigint)`;

/**
 * Newest-first works by the authors that `followees` (a query of follows rows aliased `f`, with `f.followee_id`) names,
 * as `viewerId` sees them: a bounded read of each author's newest works (videos_author_idx), merged, so the cost grows
 * with how many people the viewer follows, never with the site.
 */
async function authorsFeed(viewerId: number, followees: SQL, kind: string, page: Page): Promise<Paged<VideoCard>> {
  const limit = pageLimit(page, 24);
  const key = cursorKey(page.cursor, kind, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const per = limit + 1 + skip;
  const older = key ? sql`and ${olderThan(videos.createdAt, videos.id, key)}` : sql``;
  // First the authors' newest published works before the viewer's rules, from videos_author_recent_idx alone (no
  // work's wide row is read): every work the page can hold is among them, in the same order. Twice the page, so that
  // a few friends-only or muted works among them still leave a full page.
  const reach = 2 * per;
  const { rows: newest } = await db().execute<{ id: number }>(sql`
    select p.id from ${followees} cross join lateral (
      select ${videos.id} as id, ${videos.createdAt} as created_at from ${videos}
      where ${videos.authorId} = f.followee_id and ${videos.deletedAt} is null and ${videos.status} = 'published' ${older}
      order by ${videos.createdAt} desc, ${videos.id} desc limit ${reach}) p
    order by p.created_at desc, p.id desc limit ${reach}`);
  const cards = (picked: SQL) =>
    db()
      .select({ ...cardColumns, at: micros(videos.createdAt) })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.authorId))
      .where(and(picked, visibleWorks(viewerId), notMutedWork(viewerId)))
      .orderBy(desc(videos.createdAt), desc(videos.id))
      .limit(per);
  let rows = await cards(sql`${videos.id} = any (${`{${newest.map((r) => Number(r.id)).join(',')}}`}::int[])`);
  if (rows.length < per && newest.length === reach) {
    // So many of them hidden from the viewer that the page is not full: the rules applied per author, as they read.
    // Inside the lateral select, "videos" is that select's own table: the rule and the key apply per author.
    rows = await cards(sql`${videos.id} in (select p.id from ${followees} cross join lateral (
        select ${videos.id} as id, ${videos.createdAt} as created_at from ${videos}
        where ${videos.authorId} = f.followee_id and ${and(visibleWorks(viewerId), notMutedWork(viewerId))} ${older}
        order by ${videos.createdAt} desc, ${videos.id} desc limit ${per}) p
      order by p.created_at desc, p.id desc limit ${per})`);
  }
  const p = keyedPage(rows.slice(skip), limit, kind, (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...card }) => card) };
}

/** Videos by the authors the viewer follows, newest first. */
export async function followFeed(viewerId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  return authorsFeed(
    viewerId,
    sql`(select followee_id from follows where follower_id = ${viewerId}) f`,
    'follow',
    page,
  );
}

/** Videos by the viewer's friends (mutual follows), newest first. */
export async function friendFeed(viewerId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  return authorsFeed(
    viewerId,
    sql`(select a.followee_id from follows a join follows b on b.follower_id = a.followee_id and b.followee_id = a.follower_id
      where a.follower_id = ${viewerId}) f`,
    'friend',
    page,
  );
}

/** A newest-first page of `viewerId`'s cards joined with a per-user list (likes, collects…), keyed by the list's time. */
async function timeline(
  viewerId: number | null,
  page: Page,
  fallback: number,
  kind: string,
  list: { table: typeof likes | typeof watchLater; userId: number },
): Promise<Paged<VideoCard>> {
  const limit = pageLimit(page, fallback);
  const key = cursorKey(page.cursor, kind, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const t = list.table;
  const rows = await db()
    .select({ ...cardColumns, at: micros(t.createdAt) })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .innerJoin(t, and(eq(t.targetId, videos.id), eq(t.userId, list.userId)))
    .where(and(visibleWorks(viewerId), key ? olderThan(sql`${t.createdAt}`, sql`${t.targetId}`, key) : undefined))
    .orderBy(desc(t.createdAt), desc(t.targetId))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, kind, (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...card }) => card) };
}

/** A user's works, newest first, as `viewerId` sees them; `onlyPrivate` keeps the 仅自己可见 ones. */
async function works(
  userId: number,
  viewerId: number | null,
  page: Page,
  fallback: number,
  kind: string,
  onlyPrivate = false,
): Promise<Paged<VideoCard>> {
  const limit = pageLimit(page, fallback);
  const key = cursorKey(page.cursor, kind, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const rows = await db()
    .select({ ...cardColumns, at: micros(videos.createdAt) })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(
      and(
        visibleWorks(viewerId),
        eq(videos.authorId, userId),
        onlyPrivate ? eq(videos.visibility, 'private') : undefined,
        key ? olderThan(videos.createdAt, videos.id, key) : undefined,
      ),
    )
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, kind, (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...card }) => card) };
}

/**
 * A user's videos for one profile tab (posts, likes, collections, watch history or watch later) as `viewerId` sees
 * them. Whether the viewer may open the tab at all is the caller's question to `visibility.ts`.
 */
export async function profileTab(
  userId: number,
  tab: ProfileTab,
  page: Page,
  viewerId: number | null,
): Promise<Paged<VideoCard>> {
  switch (tab) {
    case 'post':
      return works(userId, viewerId, page, 24, 'post');
    case 'like':
      return timeline(viewerId, page, 24, 'like', { table: likes, userId });
    case 'favorite_collection':
      return timeline(viewerId, page, 24, 'collect', { table: collects, userId });
    case 'record':
      return historyPage(userId, page, false, 24, viewerId);
    case 'watch_later':
      return timeline(viewerId, page, 24, 'later', { table: watchLater, userId });
  }
}

/** A user's own works that only they may see (仅自己可见), newest first: what the owner's 私密 list shows. */
export async function privateWorks(userId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  return works(userId, userId, page, 18, 'private', true);
}

/** Which of `videoIds` the viewer has liked and collected (one round trip). */
export async function viewerVideoStates(
  viewerId: number,
  videoIds: number[],
): Promise<{ liked: Set<number>; collected: Set<number> }> {
  const liked = new Set<number>();
  const collected = new Set<number>();
  if (!videoIds.length) return { liked, collected };
  const rows = await db()
    .select({ kind: sql<string>`'l'`, id: likes.targetId })
    .from(likes)
    .where(and(eq(likes.userId, viewerId), inArray(likes.targetId, videoIds)))
    .unionAll(
      db()
        .select({ kind: sql<string>`'c'`, id: collects.targetId })
        .from(collects)
        .where(and(eq(collects.userId, viewerId), inArray(collects.targetId, videoIds))),
    );
  for (const r of rows) (r.kind === 'l' ? liked : collected).add(r.id);
  return { liked, collected };
}

export interface HistoryCard extends VideoCard {
  progressMs: number;
  watchedAt: Date;
}

/**
 * The viewer's watch history of the last 30 days with progress, latest first; `theatreOnly` keeps 放映厅 episodes.
 * `viewerId` is who looks (the owner, unless a profile's tab is shown to someone the owner allows).
 */
export async function historyPage(
  userId: number,
  page: Page = {},
  theatreOnly = false,
  fallback = 20,
  viewerId: number | null = userId,
): Promise<Paged<HistoryCard>> {
  const limit = pageLimit(page, fallback);
  const kind = theatreOnly ? 'theatre' : 'record';
  const key = cursorKey(page.cursor, kind, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const rows = await db()
    .select({
      ...cardColumns,
      progressMs: watchHistory.progressMs,
      watchedAt: watchHistory.watchedAt,
      at: micros(watchHistory.watchedAt),
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .innerJoin(watchHistory, and(eq(watchHistory.videoId, videos.id), eq(watchHistory.userId, userId)))
    .where(
      and(
        visibleWorks(viewerId),
        sql`${watchHistory.watchedAt} > now() - interval '30 days'`,
        theatreOnly
          ? sql`exists (select 1 from series_items si join series s on s.id = si.series_id where si.video_id = ${videos.id} and s.kind = 'theatre')`
          : undefined,
        key ? olderThan(sql`${watchHistory.watchedAt}`, sql`${watchHistory.videoId}`, key) : undefined,
      ),
    )
    .orderBy(desc(watchHistory.watchedAt), desc(watchHistory.videoId))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, kind, (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...card }) => card) };
}
