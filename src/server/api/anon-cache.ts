/**
 * Short-lived answers for anonymous viewers of the hottest reads, in this process; any write in this process clears
 * them (anonymous-content.ts). API_ANON_CACHE=off turns it off (tests, and the benchmark's uncached column).
 */
import { onAnonymousContentChange } from '../cache/anonymous-content.ts';

/** Answers kept at once; the oldest goes first. */
export const ANON_CACHE_LIMIT = 500;

/**
 * One cached answer: its UTF-8 bytes, and the compressed forms a Node door (node.ts) makes once and keeps (each a
 * promise, so that viewers asking while it is being made wait for it), so a hot read is neither re-encoded nor
 * re-compressed while it lives.
 */
export interface CachedAnswer {
  readonly bytes: Uint8Array;
  readonly expires: number;
  readonly encoded: Map<string, Promise<Uint8Array>>;
}

const entries = new Map<string, CachedAnswer>();
// Answers being made, by key: the viewers who miss while one is made wait for it instead of each making their own
// (when a hot answer expires under load, every connection would otherwise rebuild it at once).
const building = new Map<string, Promise<CachedAnswer | undefined>>();
// Bumped by every clear: an answer begun before a write is handed to those who asked for it, never kept.
let generation = 0;
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

function answerOf(text: string, ttl: number): CachedAnswer {
  return { bytes: utf8.encode(text), expires: Date.now() + ttl, encoded: new Map() };
}

/** Keeps `text` under `key` for `ttl` ms, making room by dropping the oldest answer when full. */
export function rememberAnswer(key: string, text: string, ttl: number): CachedAnswer {
  if (entries.size >= ANON_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  const entry = answerOf(text, ttl);
  entries.set(key, entry);
  return entry;
}

/**
 * The answer under `key` made by `make` (its JSON text) and kept for `ttl` ms, or the one already being made under
 * `key`: concurrent misses make it once. `make` answering undefined means not cacheable (nobody gets an answer from
 * it; the router then answers each viewer itself). A failure reaches everyone who waited for it.
 */
export function buildAnswerOnce(key: string, ttl: number, make: () => Promise<string | undefined>): Promise<CachedAnswer | undefined> {
  const pending = building.get(key);
  if (pending) return pending;
  const begun = generation;
  const made = Promise.resolve()
    .then(make)
    .then((text) => {
      if (text === undefined) return undefined;
      return begun === generation ? rememberAnswer(key, text, ttl) : answerOf(text, ttl);
    });
  building.set(key, made);
  const done = () => {
    if (building.get(key) === made) building.delete(key);
  };
  made.then(done, done);
  return made;
}

/**
 * A 200 response of a cached answer, remembered so `cachedAnswerOf` finds the entry behind it. Without `body` it
 * carries none: for a door that writes `entry.bytes` itself, since copying them into a Response costs more than the
 * rest of a cache hit for an answer of some tens of KB.
 */
export function answerResponse(entry: CachedAnswer, headers: HeadersInit, body = true): Response {
  const response = new Response(body ? (entry.bytes as Uint8Array<ArrayBuffer>) : null, { status: 200, headers });
  answers.set(response, entry);
  return response;
}

/** The cache entry behind a response of handleApi, if it came from (or went into) the anonymous cache. */
export function cachedAnswerOf(response: Response): CachedAnswer | undefined {
  return answers.get(response);
}

/** Empties the anonymous answer cache (after writes, and in tests); answers being made are not kept. */
export function clearApiCache(): void {
  entries.clear();
  building.clear();
  generation++;
}

onAnonymousContentChange(clearApiCache);
