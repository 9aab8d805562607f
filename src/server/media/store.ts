/**
 * Where published media lives, behind one interface: files on local disk under DATA_DIR/media (the default, served by
 * server.ts under /media/), or objects in an S3-compatible bucket (MEDIA_STORE=s3://bucket[/prefix], s3-store.ts).
 * URLs never come from here: mediaUrl() makes them from the key, with MEDIA_BASE_URL for a CDN.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { config } from '../config.ts';
import { mediaDir } from './paths.ts';
import { s3Store } from './s3-store.ts';
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

let cached: { setting: string; store: MediaStore } | undefined;

/** The store MEDIA_STORE names ('local', the default, or s3://bucket[/prefix]). */
export function mediaStore(): MediaStore {
  const settings = config();
  const where = settings.MEDIA_STORE;
  if (where.kind === 'local') return localStore();
  // One S3 client per setting: it holds the connection pool.
  const setting = JSON.stringify([where, settings.S3_ENDPOINT, settings.S3_REGION, settings.S3_FORCE_PATH_STYLE]);
  if (cached?.setting !== setting) cached = { setting, store: s3Store(where) };
  return cached.store;
}

/** Whether media lives somewhere other than this machine's DATA_DIR (then /media/ falls back to the store). */
export function isRemoteStore(): boolean {
  return config().MEDIA_STORE.kind !== 'local';
}
