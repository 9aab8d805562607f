/** Completions of typed text (search/sug): hot words, then hashtags, then video titles, each matched by prefix. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { normalizeQuery } from '../../shared/search-query.ts';
import { hotSearchWords, HOT_POOL } from './hot-search.ts';
import { ttlCache } from './ttl-cache.ts';

/** Spec point 9: at most 8 suggestions. */
export const MAX_SUGGESTIONS = 8;
/** Title rows read in index order per prefix; ranking by likes happens within them (keeps one-character prefixes fast). */
const TITLE_CANDIDATES = 200;
const TAGS_TTL_MS = 60_000;

interface Tag {
  name: string;
  folded: string;
  uses: number;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

// Hashtags with their use counts, most used first: a few thousand rows at most, kept in memory and filtered per keystroke.
const tags = ttlCache(async (): Promise<Tag[]> => {
  const { rows } = await db().execute<{ name: string; uses: number }>(sql`
    select h.name, coalesce(u.uses, 0)::int as uses
    from hashtags h left join (select hashtag_id, count(*) as uses from video_hashtags group by hashtag_id) u on u.hashtag_id = h.id
    order by uses desc, h.name`);
  return rows.map((r) => ({ name: r.name, folded: fold(r.name), uses: Number(r.uses) }));
}, TAGS_TTL_MS);

/** Titles starting with a prefix, the most liked among the first TITLE_CANDIDATES in index order. */
async function titlesByPrefix(prefix: string, limit: number): Promise<string[]> {
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // The expression and predicate repeat those of videos_title_prefix_idx, and `using ~<~` is its ordering, so this is an index range scan.
  const { rows } = await db().execute<{ title: string }>(sql`
    select title from (
      select split_part(v.desc, ' #', 1) as title, v.digg_count
      from videos v
      where v.deleted_at is null and lower(split_part(v.desc, ' #', 1)) like ${like} and v.status = 'published' and v.visibility = 'public'
      order by lower(split_part(v.desc, ' #', 1)) using ~<~
      limit ${TITLE_CANDIDATES}
    ) c
    group by title order by max(digg_count) desc, title limit ${limit}`);
  return rows.map((r) => r.title);
}

/** Up to `limit` (≤ 8) completions of `raw`: hot words first (hottest), then hashtags (most used), then titles (most liked). */
export async function suggestByPrefix(raw: string, limit = MAX_SUGGESTIONS): Promise<string[]> {
  const prefix = fold(normalizeQuery(raw));
  if (!prefix) return [];
  const n = Math.min(Math.max(Math.trunc(limit), 1), MAX_SUGGESTIONS);
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (word: string) => {
    const w = word.trim();
    const key = fold(w);
    if (w && out.length < n && !seen.has(key) && key.startsWith(prefix)) {
      seen.add(key);
      out.push(w);
    }
  };
  for (const w of await hotSearchWords(HOT_POOL)) add(w.word);
  for (const t of await tags.get()) if (out.length < n && t.folded.startsWith(prefix)) add(t.name);
  if (out.length < n) for (const title of await titlesByPrefix(prefix, n * 2)) add(title);
  return out;
}

/** Drops the cached hashtags (tests that add some). */
export function clearSuggestCache(): void {
  tags.clear();
}
