/** 热搜: the most searched words, their searches decaying with age (search_heat, kept from search_log). */
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
 * Heat of a word: each search counts 0.5^(age / 6 h), so a burst fades within the day, plus 0.1 × 0.5^(age / 84 h),
 * so a word searched all week stays on the list. search_heat keeps both sums per word as keys that do not move with
 * the clock (log2 Σ 2^(t / unit), t from 2000-01-01), so the hottest words are read from the top of two indexes
 * instead of summing a week of search_log.
 */
const WEEK_WEIGHT = 0.1;
/** Words kept per process: the hot list, the guesses and the completions all draw on this pool. */
export const HOT_POOL = 200;
/** A search shows up in 热搜 within this time on the server that logged it (others within HOT_TTL_MS). */
const AFTER_SEARCH_MS = 1000;
const HOT_TTL_MS = 10_000;

type HeatRow = {
  src: 'b' | 'w';
  word: string;
  first_id: number;
  burst: number;
  week: number;
  now_burst: number;
  now_week: number;
};

/** Heat now from a word's keys and now's keys (the database's search_burst_key and search_week_key of now()). */
const heatOf = (burst: number, week: number, now: { burst: number; week: number }) =>
  2 ** (burst - now.burst) + WEEK_WEIGHT * 2 ** (week - now.week);

/**
 * The HOT_POOL hottest words, exactly: the top `depth` words by each key, ranked by their heat now. No word below
 * both tops can be hotter than the sum of the two lowest keys read; while the pool's last word is below that sum,
 * the read goes deeper.
 */
async function loadHotWords(): Promise<HotWord[]> {
  for (let depth = HOT_POOL * 2; ; depth *= 4) {
    const { rows } = await db().execute<HeatRow>(sql`
      with t as (select search_burst_key(now()) as now_burst, search_week_key(now()) as now_week)
      select * from (
        (select 'b' as src, query as word, first_id, burst, week from search_heat order by burst desc limit ${depth})
        union all
        (select 'w' as src, query as word, first_id, burst, week from search_heat order by week desc limit ${depth})
      ) u cross join t`);
    const now = { burst: Number(rows[0]?.now_burst ?? 0), week: Number(rows[0]?.now_week ?? 0) };
    const seen = new Map<string, HotWord & { heat: number }>();
    let lowBurst = Infinity;
    let lowWeek = Infinity;
    let nBurst = 0;
    for (const r of rows) {
      const burst = Number(r.burst);
      const week = Number(r.week);
      if (r.src === 'b') [lowBurst, nBurst] = [Math.min(lowBurst, burst), nBurst + 1];
      else lowWeek = Math.min(lowWeek, week);
      const heat = heatOf(burst, week, now);
      seen.set(r.word, { sentenceId: Number(r.first_id), word: r.word, hotValue: Math.round(heat * 10_000), heat });
    }
    const ranked = [...seen.values()]
      .sort((a, b) => b.heat - a.heat || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
      .slice(0, HOT_POOL);
    // Every word was read (the lists were shorter than asked), or no unread word can pass the pool's last.
    const last = ranked[HOT_POOL - 1];
    if (nBurst < depth || (last && last.heat >= heatOf(lowBurst, lowWeek, now)))
      return ranked.map(({ sentenceId, word, hotValue }) => ({ sentenceId, word, hotValue }));
  }
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
