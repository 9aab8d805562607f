/**
 * Where a list stands, as an opaque token a client passes back (Douyin's `cursor` / `max_cursor`): the sort key of the
 * last item shown, never an offset. A page after it reads from there down an index, so page 50 costs what page 1
 * costs, and rows written or removed meanwhile neither repeat nor skip the others.
 *
 * A token is base64url of a small JSON array: the list's kind, then the key's values. It is opaque by contract, not
 * secret: a forged one only chooses where a public list starts.
 */
import { invalid } from '../errors.ts';

/** One part of a sort key: a number (ids, scores, microseconds) or null. */
export type KeyPart = number | null;

/** A decoded position: which list it belongs to, and its key. */
export interface ListCursor {
  kind: string;
  key: KeyPart[];
}

/** Longest token accepted at the door (a key of a few numbers needs under 100 characters). */
export const CURSOR_MAX_LENGTH = 400;

const TOKEN = /^[A-Za-z0-9_-]+$/;

// JSON has no infinities, and an order key may be -Infinity (a work nobody has engaged with yet).
const toJson = (x: KeyPart) => (x === null || Number.isFinite(x) ? x : x > 0 ? 'inf' : '-inf');
const fromJson = (x: unknown): KeyPart | undefined =>
  x === null ? null : typeof x === 'number' ? x : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : undefined;

/** The token of `key` in the list `kind`. */
export function encodeCursor(kind: string, key: KeyPart[]): string {
  return Buffer.from(JSON.stringify([kind, ...key.map(toJson)])).toString('base64url');
}

/** A token decoded, or null when it is not one of ours (the door answers 400). '0' and '' are no cursor at all. */
export function parseCursor(token: string): ListCursor | null {
  if (token.length > CURSOR_MAX_LENGTH || !TOKEN.test(token)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > 12 || typeof parsed[0] !== 'string') return null;
  const key = parsed.slice(1).map(fromJson);
  if (key.some((x) => x === undefined)) return null;
  return { kind: parsed[0], key: key as KeyPart[] };
}

/**
 * The key of `token` for list `kind` with `size` parts, or null for the start of the list (no token, '', '0').
 * A token of another list, or of the wrong shape, is a 400.
 */
export function cursorKey(token: string | undefined, kind: string, size: number): KeyPart[] | null {
  if (token === undefined || token === '' || token === '0') return null;
  const c = parseCursor(token);
  if (!c || c.kind !== kind || c.key.length !== size) throw invalid('error.badCursor');
  return c.key;
}

/** A part of a key that must be a whole number (an id, a count, a time in microseconds); a 400 otherwise. */
export function finite(x: KeyPart): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw invalid('error.badCursor');
  return x;
}

/** A part that must be a number, infinities allowed (a score); a 400 otherwise. */
export function score(x: KeyPart): number {
  if (typeof x !== 'number' || Number.isNaN(x)) throw invalid('error.badCursor');
  return x;
}
