/** 热搜: the most searched words, from search_log in a sliding window with decay. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { ttlCache } from './ttl-cache.ts';

export interface HotWord {
  /** Stable id of the word: the first search_log row that asked it. */
  sentenceId: number;
  word: string;
  /** Heat × 10 000, rounded (Douyin's hot_value is an integer). */
  hotValue: number;
}

/**
 * Heat of a word: each search of the last 24 hours counts 0.5^(age / 6 h), so a burst fades within the day, and each
 * search of the last 7 days adds a flat 0.1, so a word searched all week stays on the list.
 */
const HALF_LIFE_S = 6 * 3600;
const WEEK_WEIGHT = 0.1;
/** Words kept per process: the hot list, the guesses and the completions all draw on this pool. */
export const HOT_POOL = 200;
/** A search shows up in 热搜 within this time on the server that logged it (others within HOT_TTL_MS). */
const AFTER_SEARCH_MS = 1000;
const HOT_TTL_MS = 10_000;

async function loadHotWords(): Promise<HotWord[]> {
  const { rows } = await db().execute<{ word: string; sentence_id: number; heat: number }>(sql`
    select w.query as word, (select min(f.id) from search_log f where f.query = w.query) as sentence_id, w.heat
    from (
      select query,
        sum(case when created_at > now() - interval '24 hours'
                 then power(0.5, greatest(extract(epoch from now() - created_at), 0)::float8 / ${HALF_LIFE_S}::float8)
                 else 0 end) + ${WEEK_WEIGHT}::float8 * count(*) as heat
      from search_log
      where created_at > now() - interval '7 days'
      group by query
    ) w
    order by w.heat desc, w.query
    limit ${HOT_POOL}`);
  const words = rows.map((r) => ({
    sentenceId: Number(r.sentence_id),
    word: r.word,
    hotValue: Math.round(Number(r.heat) * 10_000),
  }));
  if (words.length >= HOT_POOL) return words;
  // A quiet week (or a site started from an old seed): older words, most searched first, so 热搜 is never empty.
  const { rows: older } = await db().execute<{ word: string; sentence_id: number; n: number }>(sql`
    select query as word, min(id) as sentence_id, count(*)::int as n
    from search_log
    where created_at <= now() - interval '7 days'
      and not exists (select 1 from search_log r where r.query = search_log.query and r.created_at > now() - interval '7 days')
    group by query
    order by n desc, query
    limit ${HOT_POOL - words.length}`);
  return [...words, ...older.map((r) => ({ sentenceId: Number(r.sentence_id), word: r.word, hotValue: Number(r.n) }))];
}

const hot = ttlCache(loadHotWords, HOT_TTL_MS);

/** The hottest searched words, hottest first (at most HOT_POOL). */
export async function hotSearchWords(limit = 20): Promise<HotWord[]> {
  return (await hot.get()).slice(0, Math.min(Math.max(Math.trunc(limit), 1), HOT_POOL));
}

/** Called after a search is logged: the list catches up within a second instead of HOT_TTL_MS. */
export function hotWordsChanged(): void {
  hot.expireWithin(AFTER_SEARCH_MS);
}

/** Drops the cached list (tests that write search_log directly). */
export function clearHotWords(): void {
  hot.clear();
}
