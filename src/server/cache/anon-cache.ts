/**
 * Short-lived answers for anonymous viewers of the hottest reads, in this process. A write in this process
 * (anonymous-content.ts) drops the answers about the video it wrote to (those whose query names it: its comments, its
 * danmaku, its detail) at once, and ends every other one once it is REFRESH_MIN_MS (a second) old: under steady
 * writes a hot read is then made about once a second instead of once per write. API_ANON_CACHE=off turns it off
 * (tests, and the benchmark's uncached column).
 */
import { endAfterWrite, onAnonymousContentChange } from './anonymous-content.ts';
import { config } from '../config.ts';
import { onDbSwitch } from '../db/client.ts';

/** Query parameters that name the video an answer is about. */
const VIDEO_PARAMS = ['aweme_id', 'item_id', 'vid', 'videoId'];

/** Answers kept at once; the oldest goes first. */
export const ANON_CACHE_LIMIT = 500;

/**
 * One cached answer: its UTF-8 bytes, and the compressed forms a Node door (node.ts) makes once and keeps (each a
 * promise, so that viewers asking while it is being made wait for it), so a hot read is neither re-encoded nor
 * re-compressed while it lives.
 */
export interface CachedAnswer {
  readonly bytes: Uint8Array;
  /** Served until then; a write brings it forward. */
  expires: number;
  readonly encoded: Map<string, Promise<Uint8Array>>;
  /** When it began to be made: what it says is at least that recent. */
  readonly madeAt: number;
  /** The video its query names, if any: a write about it drops the answer at once. */
  readonly video: string | undefined;
}

const entries = new Map<string, CachedAnswer>();
// Answers being made, by key: the viewers who miss while one is made wait for it instead of each making their own
// (when a hot answer expires under load, every connection would otherwise rebuild it at once).
const building = new Map<string, Promise<CachedAnswer | undefined>>();
// Bumped by every clear: an answer begun before one is handed to those who asked for it, never kept. Writes bump
// `writes`, and `videoWrites` keeps the count at the latest write about each video (a few seconds' worth): an answer
// begun before a write is kept on that write's terms.
let generation = 0;
let writes = 0;
const videoWrites = new Map<string, { count: number; at: number }>();
/** Videos' writes remembered before the old ones are let go. */
const VIDEO_WRITES_KEPT = 1_000;
const answers = new WeakMap<Response, CachedAnswer>();
const utf8 = new TextEncoder();

/**
 * The key of an anonymous read of `method` on `url`, or undefined while the cache is turned off. The origin is part of
 * it: answers carry share links made on the origin they were asked at.
 */
export function anonCacheKey(method: string, url: URL): string | undefined {
  return config().API_ANON_CACHE ? `${method} ${url.origin}${url.pathname}${url.search}` : undefined;
}

/** The live answer under `key`, if any; an expired one is dropped. */
export function cachedAnswer(key: string): CachedAnswer | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  if (hit.expires > Date.now()) return hit;
  entries.delete(key);
  return undefined;
}

function answerOf(text: string, ttl: number, madeAt = Date.now(), video?: string): CachedAnswer {
  return { bytes: utf8.encode(text), expires: Date.now() + ttl, encoded: new Map(), madeAt, video };
}

/** The video a key's query names, if any. */
function videoOf(key: string): string | undefined {
  const q = key.indexOf('?');
  if (q === -1) return undefined;
  const params = new URLSearchParams(key.slice(q + 1));
  for (const name of VIDEO_PARAMS) {
    const value = params.get(name);
    if (value) return value;
  }
  return undefined;
}

/** Keeps `text` under `key` for `ttl` ms, making room by dropping the oldest answer when full. */
export function rememberAnswer(key: string, text: string, ttl: number, madeAt = Date.now()): CachedAnswer {
  if (entries.size >= ANON_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  const entry = answerOf(text, ttl, madeAt, videoOf(key));
  entries.set(key, entry);
  return entry;
}

/**
 * The answer under `key` made by `make` (its JSON text) and kept for `ttl` ms, or the one already being made under
 * `key`: concurrent misses make it once. `make` answering undefined means not cacheable (nobody gets an answer from
 * it; the router then answers each viewer itself). A failure reaches everyone who waited for it.
 */
export function buildAnswerOnce(
  key: string,
  ttl: number,
  make: () => Promise<string | undefined>,
): Promise<CachedAnswer | undefined> {
  const pending = building.get(key);
  if (pending) return pending;
  const begun = generation;
  const begunWrites = writes;
  const madeAt = Date.now();
  const made = Promise.resolve()
    .then(make)
    .then((text) => {
      if (text === undefined) return undefined;
      if (begun !== generation) return answerOf(text, ttl);
      if (begunWrites === writes) return rememberAnswer(key, text, ttl, madeAt);
      // Writes came while it was made: kept on the terms of the latest, which also ends it once it is a second old.
      const video = videoOf(key);
      if (video !== undefined && (videoWrites.get(video)?.count ?? 0) > begunWrites) return answerOf(text, ttl);
      const entry = rememberAnswer(key, text, ttl, madeAt);
      entry.expires = endAfterWrite(entry.expires, madeAt, Date.now());
      return entry;
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

/** Empties the anonymous answer cache (tests); answers being made are not kept. */
export function clearApiCache(): void {
  entries.clear();
  building.clear();
  generation++;
}
onDbSwitch(clearApiCache);

/**
 * A write changed what anonymous viewers may read: answers about `videos` (their ids) go now, every other one once
 * it is REFRESH_MIN_MS old. Answers being made are kept on the same terms when they are done.
 */
export function answersChanged(videos: readonly number[]): void {
  const now = Date.now();
  const written = new Set(videos.map(String));
  const count = ++writes;
  for (const video of written) videoWrites.set(video, { count, at: now });
  if (videoWrites.size > VIDEO_WRITES_KEPT) {
    // Only builds begun before a write look it up, and none runs for long.
    for (const [video, write] of videoWrites) if (now - write.at > 10_000) videoWrites.delete(video);
  }
  for (const [key, entry] of entries) {
    if (entry.video !== undefined && written.has(entry.video)) entries.delete(key);
    else entry.expires = endAfterWrite(entry.expires, entry.madeAt, now);
  }
  // A build under way for a written video would be kept on its old terms if someone joined it: let the next miss start afresh.
  for (const key of building.keys()) {
    const video = videoOf(key);
    if (video !== undefined && written.has(video)) building.delete(key);
  }
}

onAnonymousContentChange(answersChanged);
