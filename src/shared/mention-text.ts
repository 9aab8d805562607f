/** @mentions in comment text: the one pattern the server resolves and notifies by, and the browser and pages link by. */

/** Longest nickname a mention can name, in code points. */
export const MENTION_NAME_MAX = 20;

// No whitespace and no '@' in a name; `u`: lengths count code points, so a 20-character Chinese or emoji nickname fits.
const NAME = String.raw`[^\s@]{1,${MENTION_NAME_MAX}}`;
const MENTION = new RegExp(`@(${NAME})`, 'gu');

/** A whole string that a mention can name (1 to 20 code points, no whitespace, no '@'). */
export const MENTION_NAME = new RegExp(`^${NAME}$`, 'u');

/** Most nicknames one resolve call may ask about (a page of comments rarely mentions more). */
export const MENTION_RESOLVE_MAX = 50;

export type TextPart = { text: string } | { mention: string };

export interface MentionSpan {
  name: string;
  /** UTF-16 offsets of `@name`, as JavaScript clients slice the text. */
  start: number;
  end: number;
}

/** Every @name of the text, in order. */
export function mentionSpans(text: string): MentionSpan[] {
  return [...text.matchAll(MENTION)].map((m) => ({ name: m[1]!, start: m.index, end: m.index + m[0].length }));
}

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

/** The distinct nicknames a text mentions, in order of first appearance. */
export function mentionedNames(text: string): string[] {
  return [...new Set(splitMentions(text).flatMap((p) => ('mention' in p ? [p.mention] : [])))];
}
