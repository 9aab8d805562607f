/** Reading videos: feeds, channels, hot list, detail and related videos. */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { collects, follows, hashtags, likes, users, videoHashtags, videos, watchHistory } from '../db/schema.ts';
import { spreadAuthors } from '../../shared/author-spread.ts';
import { bounds, cardColumns, selectCards, toPage, type Page, type Paged, type VideoCard } from './video-cards.ts';
import { visibleWorks, type ProfileTab } from './visibility.ts';

export const CHANNEL_IDS = [300201, 300203, 300204, 300205, 300206, 300207, 300208, 300209] as const;

/** Whether `id` is one of the eight channels. */
export function isChannel(id: number): boolean {
  return (CHANNEL_IDS as readonly number[]).includes(id);
}

// Engagement rate with a 3-day half-life freshness decay: explainable and deterministic.
// float8, not numeric: extract() answers numeric, whose exp() made the feed query 3-4x slower.
const engagement = sql<number>`(
  (${videos.diggCount} + 2 * ${videos.commentCount} + 3 * ${videos.collectCount} + ${videos.shareCount})::float8
  / (${videos.playCount} + 50)
  * exp(-extract(epoch from (now() - ${videos.createdAt}))::float8 / 259200.0)
)`;

/**
 * Weights of the recommend ranker, all in one place so the ranking can be explained:
 * score = engagement × freshness (above) × channel affinity × author affinity × 不感兴趣 bias × recently-watched drop.
 */
const RANK = {
  /** What one of the viewer's signals on a video is worth: a like, a collect, a full watch. */
  like: 1,
  collect: 1.5,
  watch: 0.5,
  /** Channel affinity: 1 + channel × (the viewer's signals in the channel) / (all their signals + prior). */
  channel: 1.5,
  channelPrior: 3,
  /** Author affinity: 1 + follow (when following) + author × min(signals on the author's videos, authorCap). */
  follow: 0.6,
  author: 0.25,
  authorCap: 4,
  /** Each 不感兴趣 on an author's video multiplies the author's other videos by this; in a channel, by the next (at most 3 times). */
  dislikedAuthor: 0.4,
  dislikedChannel: 0.8,
  /** A video watched recently, but not in this session (which would reshuffle the pages being read), sinks to this. */
  watched: 0.05,
} as const;

/**
 * The recommend feed. Anonymous viewers get engagement × freshness; a viewer's feed is also weighted by their channel
 * and author affinity (likes, collects, watch time, follows), lowered for authors and channels they marked 不感兴趣,
 * without the videos they marked, and with what they watched in the last 3 days (before the last 30 minutes) last.
 * Ties go to the newer id, so a viewer's feed is deterministic for a given database; no author twice in a row.
 */
export async function recommend(viewerId: number | null, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 10);
  if (viewerId === null) {
    const rows = await selectCards(null)
      .orderBy(desc(engagement), desc(videos.id))
      .limit(limit + 1)
      .offset(offset);
    return spreadPage(rows, offset, limit);
  }
  const ranked = await db().execute<{ id: number }>(sql`
    with sig as (
      select s.video_id, sum(s.w)::float8 as w from (
        select video_id, ${RANK.like}::float8 as w from likes where user_id = ${viewerId}
        union all
        select video_id, ${RANK.collect}::float8 from collects where user_id = ${viewerId}
        union all
        select h.video_id, ${RANK.watch}::float8 * least(h.progress_ms::float8 / greatest(x.duration_ms, 1), 1.0)
        from watch_history h join videos x on x.id = h.video_id where h.user_id = ${viewerId}
      ) s group by s.video_id
    ),
    aff as (select x.channel_id, x.author_id, sig.w from sig join videos x on x.id = sig.video_id),
    chan as (select channel_id, sum(w) as w from aff group by channel_id),
    auth as (select author_id, sum(w) as w from aff group by author_id),
    total as (select coalesce(sum(w), 0) as w from aff),
    ni as (select x.author_id, x.channel_id from not_interested n join videos x on x.id = n.video_id where n.user_id = ${viewerId}),
    ni_auth as (select author_id, count(*)::int as n from ni group by author_id),
    ni_chan as (select channel_id, least(count(*), 3)::int as n from ni group by channel_id)
    select ${videos.id} as id from ${videos}
      cross join total t
      left join chan c on c.channel_id = ${videos.channelId}
      left join auth a on a.author_id = ${videos.authorId}
      left join ni_auth na on na.author_id = ${videos.authorId}
      left join ni_chan nc on nc.channel_id = ${videos.channelId}
      left join follows f on f.follower_id = ${viewerId} and f.followee_id = ${videos.authorId}
      left join watch_history wh on wh.user_id = ${viewerId} and wh.video_id = ${videos.id}
    where ${visibleWorks(viewerId)}
      and not exists (select 1 from not_interested n where n.user_id = ${viewerId} and n.video_id = ${videos.id})
    order by ${engagement}
      * (1 + ${RANK.channel}::float8 * coalesce(c.w, 0) / (t.w + ${RANK.channelPrior}::float8))
      * (1 + ${RANK.follow}::float8 * (f.follower_id is not null)::int + ${RANK.author}::float8 * least(coalesce(a.w, 0), ${RANK.authorCap}::float8))
      * power(${RANK.dislikedAuthor}::float8, coalesce(na.n, 0)) * power(${RANK.dislikedChannel}::float8, coalesce(nc.n, 0))
      * (case when wh.watched_at > now() - interval '3 days' and wh.watched_at < now() - interval '30 minutes' then ${RANK.watched}::float8 else 1 end)
      desc, ${videos.id} desc
    limit ${limit + 1} offset ${offset}`);
  const ids = ranked.rows.map((r) => Number(r.id));
  const cards = new Map((await byIds(ids, viewerId)).map((c) => [c.id, c]));
  const rows = ids.flatMap((id) => cards.get(id) ?? []);
  return spreadPage(rows, offset, limit);
}

/**
 * A page of the ranked `rows` (`limit + 1` of them) with no author twice in a row. Only the page's own rows are spread:
 * the extra row that says "more" moved into the page would come again on the next page, and a row would be lost.
 */
function spreadPage(rows: VideoCard[], offset: number, limit: number): Paged<VideoCard> {
  return toPage([...spreadAuthors(rows.slice(0, limit), (r) => r.author.id), ...rows.slice(limit)], offset, limit);
}

/** 首页 (discover): popular videos across all channels. */
export async function discover(page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 24);
  const rows = await selectCards(null)
    .orderBy(desc(engagement), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/** One channel's videos, most engaging first. */
export async function byChannel(channelId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 24);
  const rows = await selectCards(null, eq(videos.channelId, channelId))
    .orderBy(desc(engagement), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

export interface HotVideo extends VideoCard {
  /** 热度, as `hot` defines it. */
  heat: number;
}

/** What one like, comment and collect is worth in 热度 when just made, and how heat fades and how far back it looks. */
export const HEAT = { like: 1, comment: 2, collect: 3, decaySeconds: 86_400, windowDays: 7 } as const;

/**
 * 热点 and its 热度, the one definition every page and API shows:
 *   热度 = ⌈ Σ weight × e^(−age / 1 day) ⌉ over the video's likes (weight 1), comments not deleted (2) and collects (3)
 *   made in the last 7 days, age being how long ago each was made.
 * So a video's 热度 is never more than likes + 2 × comments + 3 × collects of the week, and a like made just now adds 1.
 * Videos are ranked by the unrounded sum. The rule is applied before paging, so a hidden work neither shows nor
 * shortens a page (which would read as the end).
 */
export async function hot(page: Page = {}): Promise<Paged<HotVideo>> {
  const { offset, limit } = bounds(page, 50);
  const decay = (column: SQL) =>
    sql`exp(-extract(epoch from now() - ${column})::float8 / ${HEAT.decaySeconds}::float8)`;
  const window = sql`now() - make_interval(days => ${HEAT.windowDays})`;
  const rows = await db().execute<{ video_id: number; heat: number }>(sql`
    select video_id, sum(w)::float8 as heat from (
      select video_id, ${HEAT.like}::float8 * ${decay(sql`created_at`)} as w from likes where created_at > ${window}
      union all
      select video_id, ${HEAT.comment}::float8 * ${decay(sql`created_at`)} from comments where created_at > ${window} and deleted_at is null
      union all
      select video_id, ${HEAT.collect}::float8 * ${decay(sql`created_at`)} from collects where created_at > ${window}
    ) activity join ${videos} on ${videos.id} = activity.video_id
    where ${visibleWorks(null)}
    group by video_id order by heat desc, video_id desc limit ${limit + 1} offset ${offset}`);
  const cards = new Map(
    (
      await byIds(
        rows.rows.map((r) => Number(r.video_id)),
        null,
      )
    ).map((c) => [c.id, c]),
  );
  // The query's order, not a re-sort by the rounded heat: two heats that round alike could swap across a page's edge.
  const ranked = rows.rows.flatMap((r) => {
    const card = cards.get(Number(r.video_id));
    // The epsilon keeps float noise in a sum of whole weights from rounding up past it.
    return card ? [{ ...card, heat: Math.ceil(Number(r.heat) - 1e-9) }] : [];
  });
  return toPage(ranked, offset, limit);
}

/** Cards for the given ids that `viewerId` may see, in no particular order. */
export async function byIds(ids: number[], viewerId: number | null): Promise<VideoCard[]> {
  if (!ids.length) return [];
  return selectCards(viewerId, inArray(videos.id, ids));
}

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

/** Related videos: same hashtags first, then the same channel, never the video itself nor `exclude`. */
export async function related(
  id: number,
  page: Page & { exclude?: number[]; channelId?: number } = {},
): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 12);
  // The video page has the video already: its channel saves a round trip per render.
  const [base] =
    page.channelId !== undefined
      ? [{ channelId: page.channelId }]
      : await db().select({ channelId: videos.channelId }).from(videos).where(eq(videos.id, id));
  if (!base) return { items: [], cursor: 0, hasMore: false };
  const excluded = [id, ...(page.exclude ?? [])];
  const shared = sql<number>`(select count(*) from ${videoHashtags} a join ${videoHashtags} b on a.hashtag_id = b.hashtag_id where a.video_id = ${id} and b.video_id = ${videos.id})`;
  const rows = await selectCards(
    null,
    and(
      sql`${videos.id} not in (${sql.join(
        excluded.map((x) => sql`${x}`),
        sql`, `,
      )})`,
      sql`(${videos.channelId} = ${base.channelId} or ${shared} > 0)`,
    ),
  )
    .orderBy(desc(shared), desc(engagement), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/** Videos by the authors the viewer follows, newest first. */
export async function followFeed(viewerId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 24);
  const rows = await selectCards(
    viewerId,
    sql`${videos.authorId} in (select ${follows.followeeId} from ${follows} where ${follows.followerId} = ${viewerId})`,
  )
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/** Videos by the viewer's friends (mutual follows), newest first. */
export async function friendFeed(viewerId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 24);
  const rows = await selectCards(
    viewerId,
    sql`${videos.authorId} in (select a.followee_id from ${follows} a join ${follows} b on b.follower_id = a.followee_id and b.followee_id = a.follower_id where a.follower_id = ${viewerId})`,
  )
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
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
  const { offset, limit } = bounds(page, 24);
  const q = (() => {
    switch (tab) {
      case 'post':
        return selectCards(viewerId, eq(videos.authorId, userId)).orderBy(desc(videos.createdAt), desc(videos.id));
      case 'like':
        return selectCards(viewerId)
          .innerJoin(likes, and(eq(likes.targetId, videos.id), eq(likes.userId, userId)))
          .orderBy(desc(likes.createdAt), desc(videos.id));
      case 'favorite_collection':
        return selectCards(viewerId)
          .innerJoin(collects, and(eq(collects.targetId, videos.id), eq(collects.userId, userId)))
          .orderBy(desc(collects.createdAt), desc(videos.id));
      case 'record':
        return selectCards(viewerId, sql`${watchHistory.watchedAt} > now() - interval '30 days'`)
          .innerJoin(watchHistory, and(eq(watchHistory.videoId, videos.id), eq(watchHistory.userId, userId)))
          .orderBy(desc(watchHistory.watchedAt), desc(videos.id));
      case 'watch_later':
        return selectCards(viewerId)
          .innerJoin(sql`watch_later wl`, sql`wl.video_id = ${videos.id} and wl.user_id = ${userId}`)
          .orderBy(sql`wl.created_at desc`, desc(videos.id));
    }
  })();
  const rows = await q.limit(limit + 1).offset(offset);
  return toPage(rows, offset, limit);
}

/** A user's own works that only they may see (仅自己可见), newest first: what the owner's 私密 list shows. */
export async function privateWorks(userId: number, page: Page = {}): Promise<Paged<VideoCard>> {
  const { offset, limit } = bounds(page, 18);
  const rows = await selectCards(userId, and(eq(videos.authorId, userId), eq(videos.visibility, 'private')))
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
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

/** The viewer's watch history of the last 30 days with progress, latest first; `theatreOnly` keeps 放映厅 episodes. */
export async function historyPage(userId: number, page: Page = {}, theatreOnly = false): Promise<Paged<HistoryCard>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await db()
    .select({ ...cardColumns, progressMs: watchHistory.progressMs, watchedAt: watchHistory.watchedAt })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .innerJoin(watchHistory, and(eq(watchHistory.videoId, videos.id), eq(watchHistory.userId, userId)))
    .where(
      and(
        visibleWorks(userId),
        sql`${watchHistory.watchedAt} > now() - interval '30 days'`,
        theatreOnly
          ? sql`exists (select 1 from series_items si join series s on s.id = si.series_id where si.video_id = ${videos.id} and s.kind = 'theatre')`
          : undefined,
      ),
    )
    .orderBy(desc(watchHistory.watchedAt), desc(videos.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}
