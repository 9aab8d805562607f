/** Serves `/media/<path>` from local directories with byte ranges, strong ETags and immutable caching. */
import { createReadStream, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { t } from '../../i18n/t.ts';

export type RangeResult =
  | { kind: 'none' }
  | { kind: 'unsatisfiable' }
  | { kind: 'range'; start: number; end: number };

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
  const specs = header.slice(eq + 1).split(',').map((s) => s.trim());
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

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.m4a': 'audio/mp4',
  '.mp3': 'audio/mpeg',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.vtt': 'text/vtt; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** The Content-Type for a file name, by extension. */
export function contentTypeFor(fileName: string): string {
  return TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** A strong validator from size and modification time (files are replaced, never edited in place). */
export function etagFor(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
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

type Found = { file: string; stats: Stats };

/** The first regular file named `rel` under one of `roots` that resolves (symlinks too) inside its root. */
async function findFile(roots: readonly string[], rel: string): Promise<Found | null> {
  for (const root of roots) {
    const candidate = path.join(root, rel);
    try {
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
      const inside = path.relative(realRoot, realFile);
      if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) continue;
      const stats = await stat(realFile);
      if (stats.isFile()) return { file: realFile, stats };
    } catch {
      // Missing here; try the next root.
    }
  }
  return null;
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
}

/** A handler for `GET|HEAD <prefix><path>`; the caller routes only matching URLs to it. */
export function createMediaHandler(options: MediaOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const prefix = options.prefix ?? '/media/';
  const roots = options.roots.map((r) => path.resolve(r));

  return async function serveMedia(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, t('error.methodNotAllowed'), { Allow: 'GET, HEAD' });
      return;
    }
    const rawPath = (req.url ?? '').split('?')[0] ?? '';
    const rel = rawPath.startsWith(prefix) ? safeRelativePath(rawPath.slice(prefix.length)) : null;
    if (rel === null) {
      plain(res, 400, t('error.mediaPath'));
      return;
    }
    const found = await findFile(roots, rel);
    if (!found) {
      plain(res, 404, t('error.mediaNotFound'));
      return;
    }

    const { file, stats } = found;
    const etag = etagFor(stats.size, stats.mtimeMs);
    const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000).toUTCString();
    const common: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    };

    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const notModified =
      inm !== undefined ? noneMatch(inm, etag) : ims !== undefined && Date.parse(ims) >= Math.floor(stats.mtimeMs / 1000) * 1000;
    if (notModified) {
      res.writeHead(304, common);
      res.end();
      return;
    }

    const ifRange = req.headers['if-range'];
    const range = ifRangeHolds(typeof ifRange === 'string' ? ifRange : undefined, etag, stats.mtimeMs)
      ? parseRange(req.headers.range, stats.size)
      : ({ kind: 'none' } as const);

    if (range.kind === 'unsatisfiable') {
      plain(res, 416, t('error.rangeNotSatisfiable'), { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${stats.size}` });
      return;
    }
    const start = range.kind === 'range' ? range.start : 0;
    const end = range.kind === 'range' ? range.end : stats.size - 1;
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': contentTypeFor(file),
      'Content-Length': String(Math.max(0, end - start + 1)),
    };
    if (range.kind === 'range') headers['Content-Range'] = `bytes ${start}-${end}/${stats.size}`;
    res.writeHead(range.kind === 'range' ? 206 : 200, headers);

    if (req.method === 'HEAD' || stats.size === 0) {
      res.end();
      return;
    }
    try {
      await pipeline(createReadStream(file, { start, end }), res);
    } catch {
      // The client went away mid-stream (a seeking player does that all the time), or the file vanished.
      res.destroy();
    }
  };
}
