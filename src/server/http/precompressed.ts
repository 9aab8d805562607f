/**
 * The build's hashed assets (`dist/client/_astro/*`: JavaScript, CSS, SVG) compressed once at build time at the
 * highest levels (brotli 11, gzip 9) and served as they are: a compression middleware would redo brotli 4 on every
 * request for bytes that never change (the React runtime alone is 221 KB). `precompressAssets` writes `name.br` and
 * `name.gz` beside each file (the Astro integration in astro.config.mjs runs it after every build); `loadPrecompressed`
 * holds them in memory at start (a few hundred KB) and answers with the encoding a client takes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { pickEncoding, type Encoding } from '../encoding.ts';

/** The URL folder of the build's hashed assets and their caching (their names change with their content). */
export const ASSETS_PREFIX = '/_astro/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Types worth compressing, by extension. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
/** Smaller files go out as they are. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Writes `name.br` and `name.gz` beside every compressible file of `dir` where they are smaller; returns how many files. */
export async function precompressAssets(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const files = names.filter((name) => TYPES[path.extname(name)] !== undefined);
  let done = 0;
  await Promise.all(
    files.map(async (name) => {
      const file = path.join(dir, name);
      const raw = await readFile(file);
      if (raw.byteLength < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      if (br.byteLength < raw.byteLength) await writeFile(`${file}.br`, br);
      if (gz.byteLength < raw.byteLength) await writeFile(`${file}.gz`, gz);
      done++;
    }),
  );
  return done;
}

interface Asset {
  readonly type: string;
  readonly raw: Buffer;
  readonly encoded: Partial<Record<Encoding, Buffer>>;
}

export interface Precompressed {
  /** Answers a GET or HEAD for one of the assets and returns true, or returns false (not one of them). */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  readonly size: number;
}

/** The assets of `dir` (served under ASSETS_PREFIX) that have a precompressed form, held in memory. */
export function loadPrecompressed(dir: string): Precompressed {
  const assets = new Map<string, Asset>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // No build output: nothing to serve from here.
  }
  const present = new Set(names);
  for (const name of names) {
    const type = TYPES[path.extname(name)];
    if (!type || !statSync(path.join(dir, name)).isFile()) continue;
    const encoded: Partial<Record<Encoding, Buffer>> = {};
    if (present.has(`${name}.br`)) encoded.br = readFileSync(path.join(dir, `${name}.br`));
    if (present.has(`${name}.gz`)) encoded.gzip = readFileSync(path.join(dir, `${name}.gz`));
    if (encoded.br || encoded.gzip)
      assets.set(`${ASSETS_PREFIX}${name}`, { type, raw: readFileSync(path.join(dir, name)), encoded });
  }
  return {
    size: assets.size,
    serve(req, res, pathname) {
      const asset = assets.get(pathname);
      if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
      const wanted = pickEncoding(req.headers['accept-encoding']);
      // A form not worth keeping (no smaller than the file) is sent as the file itself.
      const encoding = wanted && asset.encoded[wanted] ? wanted : undefined;
      const body = encoding ? asset.encoded[encoding]! : asset.raw;
      res.statusCode = 200;
      res.setHeader('content-type', asset.type);
      res.setHeader('cache-control', IMMUTABLE);
      res.setHeader('vary', 'Accept-Encoding');
      if (encoding) res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', body.byteLength);
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
