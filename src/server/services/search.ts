/** Search over the character unigram/bigram indexes (search-tokens.ts): videos ranked by match quality, popularity and freshness; users by nickname. */
import { and, asc, desc, sql, type SQL } from 'drizzle-orm';
import { db, intLiteral, limitLiteral } from '../db/client.ts';
import { users, videos } from '../db/schema.ts';
import { durationRange, NO_FILTERS, type SearchFilters } from '../../shared/search-filters.ts';
import { normalizeQuery } from '../../shared/search-query.ts';
import { notMutedWork } from './mutes.ts';
import { recordSearch, type Searcher } from './search-log.ts';
import { searchTerms } from './search-tokens.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import {
  bounds,
  emptyPage,
  pageRows,
  selectCards,
  toPage,
  type Page,
  type Paged,
  type VideoCard,
} from './video-cards.ts';

export { MAX_QUERY, normalizeQuery } from '../../shared/search-query.ts';

export interface SearchOptions {
  /** Log this search as made by this searcher; only a first page is logged, so paging is not a new search. */
  log?: Searcher;
  /** Search only this author's works (a profile's own search box). */
  authorId?: number;
  /** 筛选 of the video results: order, publish time, length (search-filters.ts). */
  filters?: SearchFilters;
  /** Who searches: a member's results leave out what they muted (mutes.ts). */
  viewerId?: number | null;
}

/** A user found by nickname. */
export type UserHit = UserCard;

interface Prepared {
  /** The normalized query, NFKC and lowercased, for phrase matches. */
  phrase: string;
  terms: string[];
  offset: number;
  limit: number;
}

async function prepare(
  raw: string,
  page: Page,
  options: SearchOptions,
  fallbackCount: number,
): Promise<Prepared | null> {
  const query = normalizeQuery(raw);
  const terms = searchTerms(query);
  const { offset, limit } = bounds(page, fallbackCount);
  if (options.log && offset === 0) await recordSearch(query, options.log);
  if (!terms.length) return null;
  return { phrase: query.normalize('NFKC').toLowerCase(), terms, offset, limit };
}

/** Strings as one text[] parameter list, for `@>` on search tokens and `like all`. */
export const textArray = (items: string[]): SQL =>
  sql`array[${sql.join(
    items.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
const likeAny = (items: string[]): SQL => textArray(items.map((t) => `%${t}%`));

/** Title and hashtags of a video's desc ('title #tag1 #tag2', as the seed and uploads write it), lowercased. */
const TITLE = sql`lower(split_part(${videos.desc}, ' #', 1))`;
const TAGS = sql`lower(substr(${videos.desc}, char_length(split_part(${videos.desc}, ' #', 1)) + 1))`;

/**
 * Match quality, best first: the exact phrase in the title (4), every term in the title (3), every term in the
 * hashtags (2), every term in the author's nickname (1), terms spread over the fields (0).
 */
function matchTier(p: Prepared): SQL {
  const patterns = likeAny(p.terms);
  return sql`case
    when position(${p.phrase} in ${TITLE}) > 0 then 4
    when ${TITLE} like all (${patterns}) then 3
    when ${TAGS} like all (${patterns}) then 2
    when lower(${users.nickname}) like all (${patterns}) then 1
    else 0 end`;
}

/**
 * Results per query, at most: the MATCH_POOL most popular and fresh videos holding every term, plus the TITLE_POOL best
 * of those holding every term in their title (so strong title matches are ranked even among thousands of matches).
 * Gathering them is an index walk (videos_search_rank_idx) for common terms and a GIN lookup for rare ones; only this
 * pool is ranked. The walk reads every row it passes to test its terms, about 25 µs a match for a term in one work in
 * six (美食 at a million videos: 1,263 rows for 200 matches, 5 ms, and ranking them as much again), which is why the
 * pool of matches anywhere is the smaller: five pages of 20, behind the title matches.
 */
export const MATCH_POOL = 100;
export const TITLE_POOL = 500;

/** The SQL of a filter set: what narrows the pool, and how the pool is gathered and the results ordered. */
function filterSql(f: SearchFilters, p: Prepared): { narrow: SQL; poolOrder: SQL; order: SQL[] } {
  const { minMs, maxMs } = durationRange(f.duration);
  const narrow = sql.join(
    [
      f.publishTime > 0 ? sql` and created_at > now() - make_interval(days => ${f.publishTime})` : sql``,
      minMs > 0 ? sql` and duration_ms >= ${minMs}` : sql``,
      maxMs !== null ? sql` and duration_ms < ${maxMs}` : sql``,
    ],
    sql``,
  );
  switch (f.sortType) {
    case 1:
      return {
        narrow,
        poolOrder: sql`digg_count desc, id desc`,
        order: [desc(videos.diggCount), desc(videos.id)],
      };
    case 2:
      return {
        narrow,
        poolOrder: sql`created_at desc, id desc`,
        order: [desc(videos.createdAt), desc(videos.id)],
      };
    default:
      return {
        narrow,
        poolOrder: sql`search_rank desc nulls last, id desc nulls last`,
        order: [desc(matchTier(p)), desc(videos.searchRank), desc(videos.id)],
      };
  }
}

/**
 * Videos holding every term of the query (at most MATCH_POOL + TITLE_POOL): by default the best matches first, then the popular
 * and fresh; 最多点赞 and 最新发布 order the matches by likes or by date instead, and the time and length filters keep
 * only the matches within them. A blank query finds nothing.
 */
export async function searchVideos(
  raw: string,
  page: Page = {},
  options: SearchOptions = {},
): Promise<Paged<VideoCard>> {
  const p = await prepare(raw, page, options, 20);
  if (!p) return emptyPage(page);
  const terms = textArray(p.terms);
  const { narrow, poolOrder, order } = filterSql(options.filters ?? NO_FILTERS, p);
  // Inside the pool, so an author's matches are not crowded out by everyone else's.
  const author = options.authorId === undefined ? sql`` : sql` and author_id = ${options.authorId}`;
  // deleted_at is null lets the pool walk the partial index; which works a viewer may see is selectCards' rule.
  const pool = sql`
    (select id from videos where deleted_at is null and search_tokens @> ${terms}${author}${narrow}
      order by ${poolOrder} limit ${intLiteral(MATCH_POOL)})
    union
    (select id from videos where deleted_at is null and title_tokens @> ${terms}${author}${narrow}
      order by ${poolOrder} limit ${intLiteral(TITLE_POOL)})`;
  const rows = await selectCards(null, and(sql`${videos.id} in (${pool})`, notMutedWork(options.viewerId ?? null))!)
    .orderBy(...order)
    .limit(limitLiteral(pageRows(p.limit)))
    .offset(p.offset);
  return toPage(rows, p.offset, p.limit);
}

/** Users whose nickname holds every term: the nickname itself first, then those starting with it, containing it, then by followers. */
export async function searchUsers(raw: string, page: Page = {}, options: SearchOptions = {}): Promise<Paged<UserHit>> {
  const p = await prepare(raw, page, options, 20);
  if (!p) return emptyPage(page);
  const nick = sql`lower(${users.nickname})`;
  const rows = await db()
    .select(userCardColumns)
    .from(users)
    .where(sql`${users.searchTokens} @> ${textArray(p.terms)}`)
    .orderBy(
      desc(sql`case when ${nick} = ${p.phrase} then 3 when starts_with(${nick}, ${p.phrase}) then 2
        when position(${p.phrase} in ${nick}) > 0 then 1 else 0 end`),
      desc(users.followerCount),
      asc(users.id),
    )
    .limit(limitLiteral(pageRows(p.limit)))
    .offset(p.offset);
  return toPage(rows, p.offset, p.limit);
}
