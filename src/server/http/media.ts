/**
 * Serves `/media/<path>` with byte ranges, strong ETags and immutable caching: from local directories, then (when media
 * lives in a bucket) from the media store, so a deployment without a CDN in front of its bucket still serves /media/.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { t } from '../../i18n/t.ts';
import { contentTypeFor, IMMUTABLE_CACHE } from '../media/content-type.ts';
import { etagFor, type MediaStore } from '../media/store.ts';
import type { RequestContext } from './request-context.ts';

export { contentTypeFor, etagFor };

export type RangeResult = { kind: 'none' } | { kind: 'unsatisfiable' } | { kind: 'range'; start: number; end: number };

const RANGE_SPEC = /^(\d*)-(\d*)$/;
// More ranges than this in one header is abuse, not a player.
const MAX_RANGES = 16;

/**
 * Parses a Range header against a resource of `size` bytes. A single satisfiable range gives
 * `range` (end inclusive, clamped); no satisfiable range gives `unsatisfiable`; a missing,
 * malformed, non-bytes or multi-range header gives `none` (answer 200 with the whole file).
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'none' };
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return { kind: 'none' };
  const specs = header
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim());
  if (specs.length > MAX_RANGES) return { kind: 'none' };

  const satisfiable: { start: number; end: number }[] = [];
  for (const spec of specs) {
    const match = RANGE_SPEC.exec(spec);
    if (!match) return { kind: 'none' };
    const [, first = '', last = ''] = match;
    if (first === '' && last === '') return { kind: 'none' };
    if (first === '') {
      // Suffix range: the last n bytes.
      const n = Number(last);
      if (n > 0 && size > 0) satisfiable.push({ start: Math.max(0, size - n), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === '' ? size - 1 : Number(last);
    if (last !== '' && end < start) return { kind: 'none' };
    if (start < size) satisfiable.push({ start, end: Math.min(end, size - 1) });
  }
  if (satisfiable.length === 0) return { kind: 'unsatisfiable' };
  if (satisfiable.length > 1) return { kind: 'none' };
  const only = satisfiable[0]!;
  return { kind: 'range', start: only.start, end: only.end };
}

/** Whether an If-None-Match value matches `etag` (weak comparison, as RFC 9110 asks for this header). */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** Whether an If-Range value still names this representation (strong ETag, or the exact Last-Modified date). */
export function ifRangeHolds(header: string | undefined, etag: string, mtimeMs: number): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(mtimeMs / 1000) * 1000 === date;
}

/**
 * Turns the URL path after `/media/` into a safe relative path, or null when it could escape
 * its root: undecodable, NUL, backslash, absolute, empty, or any `.`/`..` segment.
 */
export function safeRelativePath(encoded: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  if (decoded === '' || decoded.includes('\0') || decoded.includes('\\') || decoded.startsWith('/')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return segments.join('/');
}

/** A file found for a request: its validators, and its bytes on demand. */
interface Source {
  size: number;
  mtimeMs: number;
  etag: string;
  body(start: number, end: number): Promise<Readable>;
}

/** The first regular file named `rel` under one of `roots` that resolves (symlinks too) inside its root. */
async function findFile(roots: readonly string[], rel: string): Promise<Source | null> {
  for (const root of roots) {
    const candidate = path.join(root, rel);
    try {
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
      const inside = path.relative(realRoot, realFile);
      if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) continue;
      const stats = await stat(realFile);
      if (stats.isFile()) {
        return {
          size: stats.size,
          mtimeMs: stats.mtimeMs,
          etag: etagFor(stats.size, stats.mtimeMs),
          body: async (start, end) => createReadStream(realFile, { start, end }),
        };
      }
    } catch {
      // Missing here; try the next root.
    }
  }
  return null;
}

/** `rel` in the media store, read with the validator its head gave (a file replaced meanwhile fails the read). */
async function findObject(store: MediaStore, rel: string): Promise<Source | null> {
  const head = await store.head(rel);
  if (!head) return null;
  return {
    size: head.size,
    mtimeMs: head.lastModified.getTime(),
    etag: head.etag,
    body: (start, end) => store.read(rel, start, end, head.etag),
  };
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(message);
}

export interface MediaOptions {
  /** Directories searched in order, e.g. the built sample media, then uploads under DATA_DIR. */
  roots: readonly string[];
  /** URL prefix the handler answers for; default `/media/`. */
  prefix?: string;
  /** Searched after the roots: the media store when it is not on this machine's disk. */
  store?: MediaStore;
}

/** A handler for `GET|HEAD <prefix><path>`; the caller routes only matching URLs to it, with their context if it has one. */
export function createMediaHandler(
  options: MediaOptions,
): (req: IncomingMessage, res: ServerResponse, context?: RequestContext) => Promise<void> {
  const prefix = options.prefix ?? '/media/';
  const roots = options.roots.map((r) => path.resolve(r));

  return async function serveMedia(req, res, context) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, t('error.methodNotAllowed'), { Allow: 'GET, HEAD' });
      return;
    }
    const rawPath = context?.path ?? (req.url ?? '').split('?')[0] ?? '';
    const rel = rawPath.startsWith(prefix) ? safeRelativePath(rawPath.slice(prefix.length)) : null;
    if (rel === null) {
      plain(res, 400, t('error.mediaPath'));
      return;
    }
    const found = (await findFile(roots, rel)) ?? (options.store ? await findObject(options.store, rel) : null);
    if (!found) {
      plain(res, 404, t('error.mediaNotFound'));
      return;
    }

    const { size, mtimeMs, etag } = found;
    const lastModified = new Date(Math.floor(mtimeMs / 1000) * 1000).toUTCString();
    const common: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      'Cache-Control': IMMUTABLE_CACHE,
      'X-Content-Type-Options': 'nosniff',
    };

    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const notModified =
      inm !== undefined
        ? noneMatch(inm, etag)
        : ims !== undefined && Date.parse(ims) >= Math.floor(mtimeMs / 1000) * 1000;
    if (notModified) {
      res.writeHead(304, common);
      res.end();
      return;
    }

    const ifRange = req.headers['if-range'];
    const range = ifRangeHolds(typeof ifRange === 'string' ? ifRange : undefined, etag, mtimeMs)
      ? parseRange(req.headers.range, size)
      : ({ kind: 'none' } as const);

    if (range.kind === 'unsatisfiable') {
      plain(res, 416, t('error.rangeNotSatisfiable'), { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${size}` });
      return;
    }
    const start = range.kind === 'range' ? range.start : 0;
    const end = range.kind === 'range' ? range.end : size - 1;
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': contentTypeFor(rel),
      'Content-Length': String(Math.max(0, end - start + 1)),
    };
    if (range.kind === 'range') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    if (req.method === 'HEAD' || size === 0) {
      res.writeHead(range.kind === 'range' ? 206 : 200, headers);
      res.end();
      return;
    }
    // Opened before the status goes out, so a store that fails answers an error rather than a cut-off 200.
    const body = await found.body(start, end);
    res.writeHead(range.kind === 'range' ? 206 : 200, headers);
    try {
      await pipeline(body, res);
    } catch {
      // The client went away mid-stream (a seeking player does that all the time), or the file vanished.
      res.destroy();
    }
  };
}
