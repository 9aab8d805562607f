/**
 * Content encodings of dynamic answers (API answers, rendered pages): which one a client gets, and how it is made.
 * Levels are the ones for content made per request or per render (brotli 4, gzip 6: a few ms for a page of 60 KB);
 * files that never change are compressed once at build time at the highest levels instead (precompress.ts).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Encoding = 'br' | 'gzip';

export const BROTLI_DYNAMIC_QUALITY = 4;
export const GZIP_DYNAMIC_LEVEL = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Brotli's window for dynamic answers, here and in the streaming compression of server.ts: 256 KB instead of 4 MB.
 * Pages and API answers are far smaller, so they come out as small, and each compression sets up (and the allocator
 * keeps) a sixteenth of the memory (50 streams of a 60 KB page, 40 rounds: RSS 257 → 71 MB; a 95 KB page: 1.8 → 1.6 ms).
 */
export const BROTLI_DYNAMIC_WINDOW = 18;
const BROTLI_OPTIONS = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_DYNAMIC_QUALITY,
    [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_DYNAMIC_WINDOW,
  },
};
const GZIP_OPTIONS = { level: GZIP_DYNAMIC_LEVEL };

/** The encoding to answer with: brotli, then gzip, when the client accepts it (q=0 refuses). */
export function pickEncoding(accept: string | undefined): Encoding | undefined {
  if (!accept) return undefined;
  let gz = false;
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') gz = true;
  }
  return gz ? 'gzip' : undefined;
}

/** `bytes` compressed in `encoding` at the dynamic levels, off the main thread (zlib's thread pool). */
export function compressBody(bytes: Uint8Array | string, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(bytes, BROTLI_OPTIONS) : gzip(bytes, GZIP_OPTIONS);
}
