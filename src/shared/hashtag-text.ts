/** #hashtags in a title as every side reads them: the aweme's text_extra, the stored hashtags, the studio's preview. */

const HASHTAG = /#([^\s#]+)/g;

export interface HashtagSpan {
  name: string;
  /** UTF-16 offsets of `#name`, as JavaScript clients slice the text. */
  start: number;
  end: number;
}

/** Every `#name` in the text, in order. */
export function hashtagSpans(text: string): HashtagSpan[] {
  return [...text.matchAll(HASHTAG)].map((m) => ({ name: m[1]!, start: m.index, end: m.index + m[0].length }));
}

/** The distinct hashtag names of a text, in order of first appearance. */
export function hashtagNames(text: string): string[] {
  return [...new Set(hashtagSpans(text).map((s) => s.name))];
}
