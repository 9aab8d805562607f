/** Video search over the character unigram/bigram index of design.md §7. */
import { and, desc, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { tokenize } from './search-tokens.ts';
import { bounds, selectCards, toPage, type Page, type Paged, type VideoCard } from './video-cards.ts';

export const MAX_QUERY = 100;

/** Trims a query and cuts it at 100 characters; '' means nothing to search. */
export function normalizeQuery(raw: string): string {
  return [...raw.trim()].slice(0, MAX_QUERY).join('').trim();
}

/** Videos whose index holds every token of the query, best matches and most liked first. */
export async function searchVideos(raw: string, page: Page = {}): Promise<Paged<VideoCard>> {
  const query = normalizeQuery(raw);
  const { offset, limit } = bounds(page, 20);
  const tokens = tokenize(query);
  if (!tokens.length) return { items: [], cursor: 0, hasMore: false };
  const arr = sql`array[${sql.join(tokens.map((t) => sql`${t}`), sql`, `)}]::text[]`;
  const rows = await selectCards()
    .where(and(sql`${videos.deletedAt} is null`, sql`${videos.searchTokens} @> ${arr}`))
    .orderBy(
      desc(sql`position(${query.toLowerCase()} in lower(${videos.desc})) > 0`),
      desc(videos.diggCount),
      desc(videos.id),
    )
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

export interface HotWord {
  /** Stable id of the word: the first search_log row that asked it. */
  sentenceId: number;
  word: string;
  hotValue: number;
}

/** 热搜: the most searched queries of the last 7 days, each search decaying with a 1-day time constant. */
export async function hotSearchWords(limit = 20): Promise<HotWord[]> {
  const { rows } = await db().execute<{ sentence_id: number; word: string; heat: number }>(sql`
    select (select min(id) from search_log s2 where s2.query = w.query) as sentence_id, w.query as word, w.heat
    from (
      select query, sum(exp(-extract(epoch from now() - created_at)::float8 / 86400.0)) as heat
      from search_log where created_at > now() - interval '7 days' and length(query) between 1 and ${MAX_QUERY}
      group by query
    ) w order by w.heat desc, w.query limit ${Math.min(Math.max(limit, 1), 50)}`);
  return rows.map((r) => ({ sentenceId: Number(r.sentence_id), word: r.word, hotValue: Math.round(Number(r.heat) * 10_000) }));
}

/** Completions of a prefix: searched queries first (most searched), then hashtags (most used), then video titles (most liked). */
export async function suggestByPrefix(raw: string, limit = 8): Promise<string[]> {
  const prefix = normalizeQuery(raw).toLowerCase();
  if (!prefix) return [];
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const n = Math.min(Math.max(limit, 1), 20);
  const { rows } = await db().execute<{ word: string }>(sql`
    select word from (
      select query as word, 1 as src, count(*)::float8 as score from search_log where lower(query) like ${like} group by query
      union all
      select h.name, 2, count(vh.video_id)::float8 from hashtags h left join video_hashtags vh on vh.hashtag_id = h.id
        where lower(h.name) like ${like} group by h.name
      union all
      select split_part(v.desc, ' #', 1), 3, max(v.digg_count)::float8 from videos v
        where v.deleted_at is null and lower(v.desc) like ${like} group by 1
    ) s order by src, score desc, word limit ${n * 3}`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { word } of rows) {
    const w = word.trim();
    if (w && !seen.has(w.toLowerCase())) {
      seen.add(w.toLowerCase());
      out.push(w);
    }
    if (out.length === n) break;
  }
  return out;
}
