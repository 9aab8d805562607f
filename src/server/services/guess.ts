/** 猜你想搜: words the viewer may want, from what people who searched the viewer's words also searched, then hot words. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { hotSearchWords } from './hot-search.ts';
import { visibleWorks } from './visibility.ts';

/** Hot words the panel shows under 热搜 anyway; guesses use them only when nothing else is left. */
const HOT_SHOWN = 6;
const SEED_WORDS = 10;
/** Bounds on the co-search walk, so a very popular word costs the same as a rare one. */
const SEEKERS = 500;
const PER_SEEKER = 50;
const NEIGHBOURS = 30;

export interface GuessOptions {
  /** 换一换: 0 for the first set, 1 for the next, ... (wraps around). */
  round?: number;
  count?: number;
  /** A video being watched: its hashtags come first. */
  videoId?: number;
}

async function recentQueries(userId: number): Promise<string[]> {
  const { rows } = await db().execute<{ query: string }>(sql`
    select query from (select query, created_at from search_log where user_id = ${userId} order by created_at desc limit 200) r
    group by query order by max(created_at) desc limit ${SEED_WORDS}`);
  return rows.map((r) => r.query);
}

/** What the latest searchers of `seeds` also searched, by how many of them did, excluding the seeds and `viewerId`. */
async function coSearched(seeds: string[], viewerId: number | null): Promise<string[]> {
  if (!seeds.length) return [];
  const seedArray = sql`array[${sql.join(
    seeds.map((s) => sql`${s}`),
    sql`, `,
  )}]::text[]`;
  const { rows } = await db().execute<{ word: string }>(sql`
    with seekers as (
      select distinct user_id from (
        select user_id from search_log
        where query = any(${seedArray}) and user_id is not null and user_id <> ${viewerId ?? 0}
        order by id desc limit ${SEEKERS}
      ) s
    )
    select w.query as word
    from seekers k
    cross join lateral (
      select query, id from search_log where user_id = k.user_id order by created_at desc limit ${PER_SEEKER}
    ) w
    where w.query <> all(${seedArray})
    group by w.query
    order by count(distinct k.user_id) desc, min(w.id)
    limit ${NEIGHBOURS}`);
  return rows.map((r) => r.word);
}

/** The hashtags of a video `viewerId` may see; none of one hidden from them. */
async function hashtagsOf(videoId: number, viewerId: number | null): Promise<string[]> {
  const { rows } = await db().execute<{ name: string }>(sql`
    select h.name from video_hashtags vh join hashtags h on h.id = vh.hashtag_id
    join ${videos} on ${videos.id} = vh.video_id and ${visibleWorks(viewerId)}
    where vh.video_id = ${videoId} order by h.id`);
  return rows.map((r) => r.name);
}

/**
 * One set of `count` guesses. Candidates, in order: the hashtags of `videoId`; words co-searched with the viewer's own
 * recent searches (or, for a visitor without any, with the top hot words); the hot words below the first six; the
 * first six. `round` rotates through them in sets, so 换一换 shows the next set.
 */
export async function guessWords(viewerId: number | null, options: GuessOptions = {}): Promise<string[]> {
  const count = Math.min(Math.max(Math.trunc(options.count ?? 8), 1), 20);
  const [own, hot, tags] = await Promise.all([
    viewerId === null ? Promise.resolve([]) : recentQueries(viewerId),
    hotSearchWords(100),
    options.videoId ? hashtagsOf(options.videoId, viewerId) : Promise.resolve([]),
  ]);
  const hotWords = hot.map((w) => w.word);
  const seeds = own.length ? own : hotWords.slice(0, HOT_SHOWN);
  const neighbours = await coSearched(seeds, viewerId);
  const skip = new Set(own);
  const candidates: string[] = [];
  for (const w of [...tags, ...neighbours, ...hotWords.slice(HOT_SHOWN), ...hotWords.slice(0, HOT_SHOWN)]) {
    if (!skip.has(w)) {
      skip.add(w);
      candidates.push(w);
    }
  }
  if (candidates.length <= count) return candidates;
  const sets = Math.ceil(candidates.length / count);
  const start = (Math.max(Math.trunc(options.round ?? 0), 0) % sets) * count;
  // The last set is topped up from the start, so every set is full.
  return Array.from({ length: count }, (_, i) => candidates[(start + i) % candidates.length]!);
}
