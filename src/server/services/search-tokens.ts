/** Search tokens for Chinese text: character unigrams and bigrams (design.md §7), used on both the index and the query side. */

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
