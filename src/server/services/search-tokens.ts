/** Search tokens for Chinese text: character unigrams and bigrams (Chinese writes no spaces between words), used on both the index and the query side. */

// A run is a maximal sequence of letters or digits (CJK, Latin, kana ...); punctuation, spaces, emoji and '#' split runs.
const RUN = /[\p{L}\p{N}]+/gu;

/** Lowercased, deduplicated unigrams and bigrams of every letter/digit run in `text`, in first-seen order. */
export function tokenize(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    const chars = Array.from(match[0]);
    for (let i = 0; i < chars.length; i++) {
      seen.add(chars[i]!);
      if (i + 1 < chars.length) seen.add(chars[i]! + chars[i + 1]!);
    }
  }
  return [...seen];
}

/**
 * The terms a query is matched by: the bigrams of each run, or the character itself for a one-character run. Every
 * term is in the index of a text that contains the query's runs, and they are fewer than tokenize() gives (a faster @>).
 */
export function searchTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const match of query.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    const chars = Array.from(match[0]);
    if (chars.length === 1) seen.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) seen.add(chars[i]! + chars[i + 1]!);
  }
  return [...seen];
}
