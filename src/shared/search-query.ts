/** Search-text rules shared by the server and the browser: one definition of the 100-character cut. */

/** Spec point 9: search text is at most 100 characters; longer text is cut, not refused (the API refuses instead). */
export const MAX_QUERY = 100;

/** The result tabs of /search/{keyword}; `general` (综合) is the default and has no `type` in the URL. */
export const SEARCH_TYPES = ['general', 'video', 'user'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Trims a query and cuts it at 100 characters (code points, so an astral character is never split); '' means nothing to search. */
export function normalizeQuery(raw: string): string {
  return [...raw.trim()].slice(0, MAX_QUERY).join('').trim();
}

/** The results page of a keyword, e.g. `/search/%E7%BE%8E%E9%A3%9F?type=video&sort_type=2` (filters: search-filters.ts). */
export function searchPath(keyword: string, type: SearchType = 'general', filters: [string, string][] = []): string {
  const path = `/search/${encodeURIComponent(keyword)}`;
  const query = new URLSearchParams([...(type === 'general' ? [] : [['type', type]]), ...filters]).toString();
  return query ? `${path}?${query}` : path;
}

/** A `type` query value as a tab; anything unknown is the default tab. */
export function parseSearchType(value: string | null | undefined): SearchType {
  return (SEARCH_TYPES as readonly string[]).includes(value ?? '') ? (value as SearchType) : 'general';
}
