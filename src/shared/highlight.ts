/** Splits text into plain and matched parts for a keyword, so pages wrap matches in <mark> without ever building HTML. */

export interface TextPart {
  text: string;
  hit: boolean;
}

// The same runs as the search tokenizer: letters and digits; punctuation and spaces separate terms.
const RUN = /[\p{L}\p{N}]+/gu;

/** The terms a keyword is searched by: the character bigrams of each run, or the character itself for a one-character run. */
function terms(keyword: string): string[][] {
  const out: string[][] = [];
  for (const match of keyword.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    const chars = Array.from(match[0]);
    if (chars.length === 1) out.push(chars);
    for (let i = 0; i + 1 < chars.length; i++) out.push([chars[i]!, chars[i + 1]!]);
  }
  return out;
}

/** `text` cut into runs of matched (hit) and unmatched characters: every place a term of the keyword occurs, case-insensitively. */
export function highlightParts(text: string, keyword: string): TextPart[] {
  const chars = Array.from(text);
  const folded = chars.map((c) => c.normalize('NFKC').toLowerCase());
  const hit = new Array<boolean>(chars.length).fill(false);
  for (const term of terms(keyword)) {
    for (let i = 0; i + term.length <= chars.length; i++) {
      if (term.every((c, j) => folded[i + j] === c)) for (let j = 0; j < term.length; j++) hit[i + j] = true;
    }
  }
  const parts: TextPart[] = [];
  for (let i = 0; i < chars.length; i++) {
    const last = parts[parts.length - 1];
    if (last && last.hit === hit[i]) last.text += chars[i];
    else parts.push({ text: chars[i]!, hit: hit[i]! });
  }
  return parts;
}
