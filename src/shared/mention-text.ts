/** @mentions in comment text as the browser and the pages split it; the pattern is the one the server resolves (services/mentions.ts). */

// `u`: lengths count code points, so a 20-character Chinese or emoji nickname fits.
const MENTION = /@([^\s@]{1,20})/gu;

export type TextPart = { text: string } | { mention: string };

/** The text cut into plain runs and @nickname mentions, in order; joining them gives the text back. */
export function splitMentions(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(MENTION)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    parts.push({ mention: m[1]! });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The distinct nicknames a text mentions. */
export function mentionedNames(text: string): string[] {
  return [...new Set(splitMentions(text).flatMap((p) => ('mention' in p ? [p.mention] : [])))];
}
