/** search_log: one row per search, holding the query, its time and the searcher's user id (no other personal data). */
import { db } from '../db/client.ts';
import { searchLog } from '../db/schema.ts';
import { normalizeQuery } from '../../shared/search-query.ts';
import { hotWordsChanged } from './hot-search.ts';

/** Logs one search (the first page of its results); a blank query is not a search and logs nothing. Returns whether it logged. */
export async function recordSearch(raw: string, userId: number | null): Promise<boolean> {
  const query = normalizeQuery(raw).replace(/\s+/g, ' ');
  if (!query) return false;
  await db().insert(searchLog).values({ userId, query });
  hotWordsChanged();
  return true;
}
