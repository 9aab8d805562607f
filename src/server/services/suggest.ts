/**
 * Completions of typed text (search/sug, 猜你想搜's completions, the search box): hot words and hashtags by prefix, then
 * users holding the text and the titles of the works it finds, so that '美' offers 美食探店小王 and the titles tagged
 * #美食 rather than two hashtags.
 */
import { sql } from 'drizzle-orm';
import { db, intLiteral } from '../db/client.ts';
import { users, videos } from '../db/schema.ts';
import { normalizeQuery } from '../../shared/search-query.ts';
import { hotSearchWords, HOT_POOL } from './hot-search.ts';
import { textArray } from './search.ts';
import { searchTerms } from './search-tokens.ts';
import { ttlCache } from './ttl-cache.ts';
import { visibleWorks } from './visibility.ts';

/** Spec point 9: at most 8 suggestions. */
export const MAX_SUGGESTIONS = 8;
/** Title rows read in index order per prefix; ranking by likes happens within them (keeps one-character prefixes fast). */
const TITLE_CANDIDATES = 200;
/**
 * Works the text finds whose titles are ranked: the most popular and fresh, read down videos_search_rank_idx, which
 * tests each row it passes for the text. For a common character (美, in one work in seven at a million videos) 200
 * candidates cost 1,300 rows read and 5 ms; the few titles a list of eight has room for come from far fewer.
 */
const FOUND_CANDIDATES = 50;
const TAGS_TTL_MS = 60_000;

interface Tag {
  name: string;
  folded: string;
  uses: number;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
/** A LIKE pattern of what starts with `text`, its wildcards taken as text. */
const startsLike = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Hashtags with their use counts, most used first: a few thousand rows at most, kept in memory and filtered per keystroke.
// Only uses by works everyone may see count, and a hashtag without any is not suggested: it would name a private work.
const tags = ttlCache(async (): Promise<Tag[]> => {
  const { rows } = await db().execute<{ name: string; uses: number }>(sql`
    select h.name, count(*)::int as uses
    from hashtags h join video_hashtags vh on vh.hashtag_id = h.id join ${videos} on ${videos.id} = vh.video_id
    where ${visibleWorks(null)}
    group by h.id, h.name
    order by uses desc, h.name`);
  return rows.map((r) => ({ name: r.name, folded: fold(r.name), uses: Number(r.uses) }));
}, TAGS_TTL_MS);

/** Titles starting with a prefix, the most liked among the first TITLE_CANDIDATES in index order. */
async function titlesByPrefix(prefix: string, limit: number): Promise<string[]> {
  const like = startsLike(prefix);
  // The expression and predicate repeat those of videos_title_prefix_idx, and `using ~<~` is its ordering, so this is an
  // index range scan; which works may be suggested is the visibility rule, as everyone sees it.
  const { rows } = await db().execute<{ title: string }>(sql`
    select title from (
      select split_part(videos.desc, ' #', 1) as title, videos.digg_count
      from ${videos}
      where videos.deleted_at is null and lower(split_part(videos.desc, ' #', 1)) like ${like} and ${visibleWorks(null)}
      order by lower(split_part(videos.desc, ' #', 1)) using ~<~
      limit ${intLiteral(TITLE_CANDIDATES)}
    ) c
    group by title order by max(digg_count) desc, title limit ${intLiteral(limit)}`);
  return rows.map((r) => r.title);
}

/**
 * Nicknames starting with the text read in index order (users_nickname_prefix_idx), of which the most followed are
 * offered. Sorting every holder by followers instead cost 9 ms for 美 at 100,000 users (2,000 rows, all over the table).
 */
export const NAME_CANDIDATES = 50;

/**
 * Users whose nickname starts with the text, the most followed first; when fewer than `limit` do, those holding it
 * fill the list, most followed first (a walk down users_followers_idx for a common character, the GIN index for a
 * rare one: PostgreSQL chooses by how common the text is).
 */
async function usersHolding(text: string, limit: number): Promise<string[]> {
  const terms = searchTerms(text);
  if (terms.length === 0) return [];
  // The starters repeat users_nickname_prefix_idx's expression and ordering (a range scan); the holders are read only
  // when the starters leave room, and a user in both counts once, as a starter.
  const { rows } = await db().execute<{ nickname: string }>(sql`
    with starters as (
      select id, nickname, follower_count from ${users}
      where lower(nickname) like ${startsLike(text)}
      order by lower(nickname) using ~<~
      limit ${intLiteral(NAME_CANDIDATES)})
    select nickname from (
      (select id, nickname, follower_count, true as starts from starters
        order by follower_count desc, id
        limit ${intLiteral(limit)})
      union all
      (select id, nickname, follower_count, false from ${users}
        where search_tokens @> ${textArray(terms)} and (select count(*) from starters) < ${intLiteral(limit)}
        order by follower_count desc nulls last, id
        limit ${intLiteral(limit)})
    ) c
    group by id, nickname, follower_count
    order by bool_or(starts) desc, follower_count desc, id
    limit ${intLiteral(limit)}`);
  return rows.map((r) => r.nickname);
}

/**
 * Titles of the works the text finds (in their title, hashtags or author's name: the search index), the most liked
 * first, for when few titles start with it: '美' finds the works tagged #美食. The candidates are the most popular and
 * fresh of them, search's own pool order: for a common term (a character such as 美 is in one work in seven) that is a
 * walk down videos_search_rank_idx that stops at FOUND_CANDIDATES, where ordering by likes would read every match.
 */
async function titlesFound(text: string, limit: number): Promise<string[]> {
  const terms = searchTerms(text);
  if (terms.length === 0) return [];
  const { rows } = await db().execute<{ title: string }>(sql`
    select title from (
      select split_part(videos.desc, ' #', 1) as title, videos.digg_count
      from ${videos}
      where videos.deleted_at is null
        and videos.search_tokens @> ${textArray(terms)}
        and ${visibleWorks(null)}
      order by videos.search_rank desc nulls last, videos.id desc nulls last
      limit ${intLiteral(FOUND_CANDIDATES)}
    ) c
    group by title order by max(digg_count) desc, title limit ${intLiteral(limit)}`);
  return rows.map((r) => r.title);
}

/** How many of each kind come before the rest fill the list: every kind is offered when it has something. */
const SHARE = { hot: 3, tags: 2, users: 2 } as const;

/**
 * Up to `limit` (≤ 8) completions of `raw`: hot words (hottest) and hashtags (most used) starting with it, users
 * (most followed) holding it, titles (most liked) starting with it, then those of the works it finds. Each kind gets a share first, titles the rest,
 * and what is left fills from the others, so that one kind never crowds out the rest.
 */
export async function suggestByPrefix(raw: string, limit = MAX_SUGGESTIONS): Promise<string[]> {
  const prefix = fold(normalizeQuery(raw));
  if (!prefix) return [];
  const n = Math.min(Math.max(Math.trunc(limit), 1), MAX_SUGGESTIONS);
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (word: string) => {
    const w = word.trim();
    const key = fold(w);
    if (w && out.length < n && !seen.has(key)) {
      seen.add(key);
      out.push(w);
    }
  };
  const [hot, tagged, people, prefixed, holding] = await Promise.all([
    hotSearchWords(HOT_POOL).then((ws) => ws.map((w) => w.word).filter((w) => fold(w).startsWith(prefix))),
    tags.get().then((ts) => ts.filter((t) => t.folded.startsWith(prefix)).map((t) => t.name)),
    usersHolding(prefix, n),
    titlesByPrefix(prefix, n * 2),
    titlesFound(prefix, n * 2),
  ]);
  const titles = [...prefixed, ...holding];
  for (const [words, share] of [
    [hot, SHARE.hot],
    [tagged, SHARE.tags],
    [people, SHARE.users],
  ] as const)
    words.slice(0, share).forEach(add);
  for (const words of [titles, hot, tagged, people]) words.forEach(add);
  return out;
}

/** Drops the cached hashtags (tests that add some). */
export function clearSuggestCache(): void {
  tags.clear();
}
