/**
 * Where published media lives, behind one interface: files on local disk under DATA_DIR/media (the default, served by
 * server.ts under /media/), or objects in an S3-compatible bucket (MEDIA_STORE=s3://bucket[/prefix], s3-store.ts).
 * URLs never come from here: mediaUrl() makes them from the key, with MEDIA_BASE_URL for a CDN.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { mediaDir } from './paths.ts';
import { s3Store, type S3Location } from './s3-store.ts';
import { checkKey, type MediaStore } from './store-contract.ts';

export { checkKey, type MediaObject, type MediaStore } from './store-contract.ts';

/** A strong validator from size and modification time (files are replaced, never edited in place). */
export function etagFor(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/** Media as files under `root` (default DATA_DIR/media). */
export function localStore(root = mediaDir()): MediaStore {
  const fileOf = (key: string) => path.join(root, checkKey(key));
  return {
    async put(localFile, key) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(localFile, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another file system: copy beside the target, then rename, so a reader never sees half a file.
        const partial = `${target}.partial`;
        await copyFile(localFile, partial);
        await rename(partial, target);
        await unlink(localFile);
      }
    },
    async remove(keys, prefixes = []) {
      await Promise.all([
        ...keys.map((key) => rm(fileOf(key), { force: true })),
        ...prefixes.map((prefix) => rm(fileOf(prefix), { recursive: true, force: true })),
      ]);
    },
    async open(key) {
      return { file: fileOf(key), release: async () => {} };
    },
    async head(key) {
      const stats = await stat(fileOf(key)).catch(() => null);
      if (!stats?.isFile()) return null;
      return { size: stats.size, etag: etagFor(stats.size, stats.mtimeMs), lastModified: stats.mtime };
    },
    async read(key, start, end) {
      return createReadStream(fileOf(key), { start, end });
    },
  };
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Reads MEDIA_STORE: 'local' (or unset), or `s3://bucket[/prefix]`; anything else is a start-up error that says why. */
export function parseMediaStore(value: string | undefined): { kind: 'local' } | ({ kind: 's3' } & S3Location) {
  const setting = (value ?? '').trim();
  if (setting === '' || setting === 'local') return { kind: 'local' };
  const match = /^s3:\/\/([^/]+)\/*(.*)$/.exec(setting);
  if (!match || !BUCKET.test(match[1]!)) {
    throw new Error(`MEDIA_STORE=${setting} is not understood: use 'local' or s3://<bucket>[/<prefix>]`);
  }
  const prefix = match[2]!.replace(/\/+$/, '');
  if (prefix) checkKey(prefix);
  return { kind: 's3', bucket: match[1]!, prefix };
}

let cached: { setting: string; store: MediaStore } | undefined;

/** The store MEDIA_STORE names ('local', the default, or s3://bucket[/prefix]). */
export function mediaStore(): MediaStore {
  const parsed = parseMediaStore(process.env.MEDIA_STORE);
  if (parsed.kind === 'local') return localStore();
  // One S3 client per setting: it holds the connection pool.
  const { MEDIA_STORE, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE } = process.env;
  const setting = JSON.stringify([MEDIA_STORE, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE]);
  if (cached?.setting !== setting) cached = { setting, store: s3Store(parsed) };
  return cached.store;
}

/** Whether media lives somewhere other than this machine's DATA_DIR (then /media/ falls back to the store). */
export function isRemoteStore(): boolean {
  return parseMediaStore(process.env.MEDIA_STORE).kind !== 'local';
}
