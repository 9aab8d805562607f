import { persistentAtom } from '@nanostores/persistent';
import { normalizeQuery, searchPath } from '../shared/search-query.ts';

/** One entry of 历史记录 (id and text). */
export interface HistoryEntry {
  id: string;
  text: string;
}

/** Entries kept, newest first. */
export const HISTORY_MAX = 20;
/** Entries shown folded; from 5 entries on an arrow unfolds the rest. */
export const HISTORY_FOLDED = 4;

function decode(raw: string): HistoryEntry[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value
      .filter((e): e is HistoryEntry => typeof e?.id === 'string' && typeof e?.text === 'string' && e.text !== '')
      .slice(0, HISTORY_MAX);
  } catch {
    return [];
  }
}

/** 历史记录: local to this browser (localStorage `sy.search-history`), newest first, without duplicates. */
export const $searchHistory = persistentAtom<HistoryEntry[]>('sy.search-history', [], {
  encode: JSON.stringify,
  decode,
});

let serial = 0;

/** Puts a searched text first (moving it up if it was there already); blank text is not recorded. */
export function addHistory(raw: string): void {
  const text = normalizeQuery(raw);
  if (!text) return;
  const id = `${Date.now().toString(36)}${(serial++).toString(36)}`;
  $searchHistory.set([{ id, text }, ...$searchHistory.get().filter((e) => e.text !== text)].slice(0, HISTORY_MAX));
}

/** Removes one entry (local only). */
export function removeHistory(id: string): void {
  $searchHistory.set($searchHistory.get().filter((e) => e.id !== id));
}

/** Removes every entry (local only). */
export function clearHistory(): void {
  $searchHistory.set([]);
}

/**
 * Searches as the search box does: blank text does nothing; otherwise the text, cut at 100
 * characters, goes into 历史记录 and its results open in a new window (`new`) or this one (`same`). Returns the text searched.
 */
export function submitSearch(raw: string, target: 'new' | 'same'): string | null {
  const text = normalizeQuery(raw);
  if (!text) return null;
  addHistory(text);
  if (target === 'new') window.open(searchPath(text), '_blank', 'noopener');
  else window.location.assign(searchPath(text));
  return text;
}
