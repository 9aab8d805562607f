/** search_log: one row per search, holding the query, its time and the searcher's user id (no other personal data). */
import { db } from '../db/client.ts';
import { searchLog } from '../db/schema.ts';
import { normalizeQuery } from '../../shared/search-query.ts';
import { perIp } from './auth/login.ts';
import { hotWordsChanged } from './hot-search.ts';
import { enforce } from './rate-limit.ts';

/** Searches one account, and one address (scaled by `perIp`), may have logged: each logged search moves 热搜. */
export const SEARCH_RATE = { limit: 60, windowMs: 60_000 };

/** Who searched: the account (null when anonymous) and, for the per-address limit, the address. */
export interface Searcher {
  userId: number | null;
  address?: string;
}

/**
 * Logs one search (the first page of its results); a blank query is not a search and logs nothing. Returns whether it
 * logged; rate_limited (429) beyond SEARCH_RATE for the account or the address.
 */
export async function recordSearch(raw: string, searcher: Searcher): Promise<boolean> {
  const query = normalizeQuery(raw).replace(/\s+/g, ' ');
  if (!query) return false;
  const { userId, address } = searcher;
  if (address !== undefined)
    await enforce(`search:ip:${address || 'unknown'}`, perIp(SEARCH_RATE.limit), SEARCH_RATE.windowMs);
  if (userId !== null) await enforce(`search:user:${userId}`, SEARCH_RATE.limit, SEARCH_RATE.windowMs);
  await db().insert(searchLog).values({ userId, query });
  hotWordsChanged();
  return true;
}
