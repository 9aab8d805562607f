/** The comment-length rule the composer shows and the server enforces: at most 500 characters, counted in code points. */

/** Longest comment in code points; the API refuses longer text. */
export const COMMENT_MAX = 500;

/** Length as both sides count it (code points), so the counter and the API agree on 500. */
export function commentLength(text: string): number {
  return [...text].length;
}

/** Whether `text` may be published: something besides whitespace, at most COMMENT_MAX code points. */
export function canPublish(text: string): boolean {
  return text.trim() !== '' && commentLength(text) <= COMMENT_MAX;
}
