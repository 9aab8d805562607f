/**
 * Short-lived answers for anonymous viewers of the hottest reads, in this process; any write in this process clears
 * them. API_ANON_CACHE=off turns it off (tests, and the benchmark's uncached column).
 */

/** Answers kept at once; the oldest goes first. */
export const ANON_CACHE_LIMIT = 500;

/**
 * One cached answer: its UTF-8 bytes, and the compressed forms a Node door (node.ts) makes once and keeps, so a hot
 * read is neither re-encoded nor re-compressed while it lives.
 */
export interface CachedAnswer {
  readonly bytes: Uint8Array;
  readonly expires: number;
  readonly encoded: Map<string, Uint8Array>;
}

const entries = new Map<string, CachedAnswer>();
const answers = new WeakMap<Response, CachedAnswer>();
const utf8 = new TextEncoder();

/**
 * The key of an anonymous read of `method` on `url`, or undefined while the cache is turned off. The origin is part of
 * it: answers carry share links made on the origin they were asked at.
 */
export function anonCacheKey(method: string, url: URL): string | undefined {
  return process.env.API_ANON_CACHE === 'off' ? undefined : `${method} ${url.origin}${url.pathname}${url.search}`;
}

/** The live answer under `key`, if any; an expired one is dropped. */
export function cachedAnswer(key: string): CachedAnswer | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  if (hit.expires > Date.now()) return hit;
  entries.delete(key);
  return undefined;
}

/** Keeps `text` under `key` for `ttl` ms, making room by dropping the oldest answer when full. */
export function rememberAnswer(key: string, text: string, ttl: number): CachedAnswer {
  if (entries.size >= ANON_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  const entry: CachedAnswer = { bytes: utf8.encode(text), expires: Date.now() + ttl, encoded: new Map() };
  entries.set(key, entry);
  return entry;
}

/** A 200 response of a cached answer, remembered so `cachedAnswerOf` finds the entry behind it. */
export function answerResponse(entry: CachedAnswer, headers: HeadersInit): Response {
  const response = new Response(entry.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
  answers.set(response, entry);
  return response;
}

/** The cache entry behind a response of handleApi, if it came from (or went into) the anonymous cache. */
export function cachedAnswerOf(response: Response): CachedAnswer | undefined {
  return answers.get(response);
}

/** Empties the anonymous answer cache (after writes, and in tests). */
export function clearApiCache(): void {
  entries.clear();
}
