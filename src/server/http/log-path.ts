/**
 * A request path as the request log may write it: segments that are ids or names of routes stay, anything else (a
 * search word in /search/{keyword}, text someone put in a URL) becomes `:text`, so the log never carries what was typed.
 */

/** Route segments and ids (numbers, sec_uids, upload ids, file names of media). */
const PLAIN = /^[A-Za-z0-9_.-]{1,80}$/;
/** Paths whose segment after the prefix is always typed text. */
const TYPED = ['/search/'];

/** `pathname` with typed text replaced by `:text`. */
export function logPath(pathname: string): string {
  for (const prefix of TYPED)
    if (pathname.startsWith(prefix) && pathname.length > prefix.length) return `${prefix}:text`;
  return pathname
    .split('/')
    .map((segment) => (segment === '' || PLAIN.test(segment) ? segment : ':text'))
    .join('/');
}
