/**
 * Rendered anonymous pages, kept briefly in this process: an anonymous page's HTML is the same for every anonymous
 * visitor (the theme applies in the browser, personal state comes through the API), so one render answers them all.
 * An entry is fresh for PAGE_FRESH_MS, then stale for PAGE_STALE_MS more: a stale entry is still handed out while one
 * render refreshes it (stale-while-revalidate), and is dropped after. A write in this process (anonymous-content.ts)
 * makes the pages of what it wrote to (a video's page, for a like on it) stale at once, so the next visitor starts the
 * render that shows it; every other page turns stale once it is `refreshMinMs` old (REFRESH_MIN_MS, a second). With
 * steady writes each hot page is then rendered about once a second instead of once per write, which kept a render of
 * every hot page under way all the time. A render that was under way when a write came is kept too, but stale on the
 * same terms: it may predate the write, so a later visitor refreshes it, while the others are still answered from
 * it. Dropping it instead would leave a page with steady writes with nothing to serve, every visitor waiting.
 * Pure and clock-driven: the Node door (src/server/http/page-answers.ts) decides who is anonymous and what is served.
 */
import { createHash } from 'node:crypto';
import { compressBody, type Encoding } from '../encoding.ts';
import { endAfterWrite, REFRESH_MIN_MS } from './anonymous-content.ts';

/** How long a render is served as it is; also the `s-maxage` a CDN in front is told. */
export const PAGE_FRESH_MS = 5_000;
/** How long after that a stale render is still served while one visitor's render refreshes it (`stale-while-revalidate`). */
export const PAGE_STALE_MS = 25_000;
/** Pages kept at once, and their bytes (the HTML and its compressed forms): the least recently served goes first. */
export const PAGE_CACHE_ENTRIES = 500;
export const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/** What a render answered: its status, its own headers (not the ones every answer gets at the door) and its HTML. */
export interface PageAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
}

export interface PageEntry extends PageAnswer {
  /** The body's hash: the strong ETag of each representation is made from it (page-answers.ts). */
  readonly hash: string;
  readonly storedAt: number;
  /** When its render began: what it shows is at least that recent. */
  readonly renderedAt: number;
  /** Served as it is until then; a write brings it forward. */
  freshUntil: number;
  /** Never served after this. */
  readonly staleUntil: number;
  /** The compressed bodies, each made once, when a visitor first asks for it. */
  readonly encoded: Map<Encoding, Promise<Buffer>>;
  /** Bytes counted against PAGE_CACHE_BYTES: the body and the compressed forms made so far. */
  size: number;
}

export interface PageCacheOptions {
  freshMs?: number;
  staleMs?: number;
  refreshMinMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  now?: () => number;
}

export class PageCache {
  private readonly entries = new Map<string, PageEntry>();
  // Renders under way, by key: visitors who miss while one is made wait for it instead of each rendering the page.
  private readonly rendering = new Map<string, Promise<PageEntry | undefined>>();
  // Bumped by every write: a render begun before one is kept on its terms. `pageWrites` holds the count at the latest
  // write to each page's own path (a few seconds' worth, pruned as they age).
  private generation = 0;
  private readonly pageWrites = new Map<string, { generation: number; at: number }>();
  // When each group was last forgotten (forget): a render of one of its keys begun before then is not kept fresh.
  private readonly forgotten = new Map<string, number>();
  private bytes = 0;
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly refreshMinMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.freshMs = options.freshMs ?? PAGE_FRESH_MS;
    this.staleMs = options.staleMs ?? PAGE_STALE_MS;
    this.refreshMinMs = options.refreshMinMs ?? REFRESH_MIN_MS;
    this.maxEntries = options.maxEntries ?? PAGE_CACHE_ENTRIES;
    this.maxBytes = options.maxBytes ?? PAGE_CACHE_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** The entry under `key` and whether it is still fresh; one past its stale window is dropped. */
  lookup(key: string): { entry: PageEntry; fresh: boolean } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (now >= entry.staleUntil) {
      this.drop(key, entry);
      return undefined;
    }
    // Served last, evicted last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { entry, fresh: now < entry.freshUntil };
  }

  /** The render under way for `key`, if any. */
  pending(key: string): Promise<PageEntry | undefined> | undefined {
    return this.rendering.get(key);
  }

  /**
   * The entry `render` makes for `key`, or the one already being made: concurrent callers render once. `render`
   * answering undefined (the answer may not be shared) or failing gives undefined to everyone who waited. An entry
   * begun before a write is kept stale, so that the next visitor refreshes it.
   */
  fill(key: string, render: () => Promise<PageAnswer | undefined>): Promise<PageEntry | undefined> {
    const pending = this.rendering.get(key);
    if (pending) return pending;
    const begun = this.generation;
    const renderedAt = this.now();
    const made = Promise.resolve()
      .then(render)
      .then(
        (answer) => {
          if (!answer) return undefined;
          const entry = this.entry(answer, renderedAt);
          const forgot = this.forgotten.get(groupOf(key));
          if (
            (this.pageWrites.get(pathOf(key))?.generation ?? 0) > begun ||
            (forgot !== undefined && forgot >= renderedAt)
          )
            entry.freshUntil = 0;
          else if (this.generation > begun)
            entry.freshUntil = endAfterWrite(entry.freshUntil, renderedAt, this.now(), this.refreshMinMs);
          this.keep(key, entry);
          return entry;
        },
        () => undefined,
      );
    this.rendering.set(key, made);
    void made.then(() => {
      if (this.rendering.get(key) === made) this.rendering.delete(key);
    });
    return made;
  }

  /**
   * A write changed what pages show: the entries of `paths` (a page's path, without its query) turn stale now, every
   * other one once it is `refreshMinMs` old, and the renders under way on the same terms when they end.
   */
  invalidate(paths: readonly string[] = []): void {
    const now = this.now();
    const generation = ++this.generation;
    for (const path of paths) this.pageWrites.set(path, { generation, at: now });
    this.prunePageWrites(now);
    const written = new Set(paths);
    for (const [key, entry] of this.entries) {
      entry.freshUntil = written.has(pathOf(key))
        ? 0
        : endAfterWrite(entry.freshUntil, entry.renderedAt, now, this.refreshMinMs);
    }
  }

  /**
   * Drops every entry of `group` (a key may begin with a group and a newline: a member's own pages), and keeps no render
   * of one that began before now fresh: it may not show the write that called this.
   */
  forget(group: string): void {
    const now = this.now();
    this.forgotten.set(group, now);
    if (this.forgotten.size > PAGE_WRITES_KEPT)
      for (const [g, at] of this.forgotten) if (now - at > this.freshMs) this.forgotten.delete(g);
    const prefix = `${group}\n`;
    for (const [key, entry] of this.entries) if (key.startsWith(prefix)) this.drop(key, entry);
  }

  /** Empties the cache (tests). */
  clear(): void {
    this.generation++;
    this.pageWrites.clear();
    this.forgotten.clear();
    this.entries.clear();
    this.rendering.clear();
    this.bytes = 0;
  }

  /** The body in `encoding`, compressed once per entry; a failure is not kept. */
  encodedBody(entry: PageEntry, encoding: Encoding): Promise<Buffer> {
    let packed = entry.encoded.get(encoding);
    if (!packed) {
      packed = compressBody(entry.body, encoding);
      entry.encoded.set(encoding, packed);
      packed.then(
        (bytes) => {
          entry.size += bytes.byteLength;
          if (this.entries.get(this.keyOf(entry) ?? '') === entry) {
            this.bytes += bytes.byteLength;
            this.trim();
          }
        },
        () => entry.encoded.delete(encoding),
      );
    }
    return packed;
  }

  /** Entries and bytes held now (tests, and the bound). */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** An entry made of `answer` that is not kept (PAGE_CACHE=off: every visitor's own render, served the same way). */
  entry(answer: PageAnswer, renderedAt = this.now()): PageEntry {
    const now = this.now();
    return {
      ...answer,
      hash: createHash('sha256').update(answer.body).digest('base64url').slice(0, 27),
      storedAt: now,
      renderedAt,
      freshUntil: now + this.freshMs,
      staleUntil: now + this.freshMs + this.staleMs,
      encoded: new Map(),
      size: answer.body.byteLength,
    };
  }

  private keep(key: string, entry: PageEntry): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    // A page larger than the whole budget would only push everything else out.
    if (entry.size > this.maxBytes) return;
    this.entries.set(key, entry);
    this.keys.set(entry, key);
    this.bytes += entry.size;
    this.trim();
  }

  // A page's own write matters only to renders begun before it, and none runs for long: the old ones are let go.
  private prunePageWrites(now: number): void {
    if (this.pageWrites.size <= PAGE_WRITES_KEPT) return;
    for (const [path, write] of this.pageWrites) if (now - write.at > this.freshMs) this.pageWrites.delete(path);
  }

  private trim(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [key, entry] = this.entries.entries().next().value!;
      this.drop(key, entry);
    }
  }

  private drop(key: string, entry: PageEntry): void {
    this.entries.delete(key);
    this.keys.delete(entry);
    this.bytes -= entry.size;
  }

  // Which key an entry is kept under, so a compressed form made later is counted only while the entry is kept.
  private readonly keys = new WeakMap<PageEntry, string>();

  private keyOf(entry: PageEntry): string | undefined {
    return this.keys.get(entry);
  }
}

/** Pages' own writes remembered before the old ones are let go. */
const PAGE_WRITES_KEPT = 1_000;

/** A cache key's group: what comes before its first newline, or '' for a key without one. */
function groupOf(key: string): string {
  const n = key.indexOf('\n');
  return n === -1 ? '' : key.slice(0, n);
}

/** A cache key's path: the page it is, whatever its query. */
function pathOf(key: string): string {
  const q = key.indexOf('?');
  return q === -1 ? key : key.slice(0, q);
}
