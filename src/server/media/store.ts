/**
 * Where published media lives, behind one interface: files on local disk under DATA_DIR/media (served by server.ts
 * under /media/) today; an object store can implement the same four calls (put by key, remove, open for reading).
 * URLs never come from here: mediaUrl() makes them from the key, with MEDIA_BASE_URL for a CDN.
 */
import { copyFile, mkdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { mediaDir } from './paths.ts';

export interface MediaStore {
  /** Moves a finished local file to `key` (a relative path such as `works/<id>/540.mp4`); the local file is gone after. */
  put(localFile: string, key: string): Promise<void>;
  /** Removes the given keys and everything under the given prefixes; missing ones are no error. */
  remove(keys: string[], prefixes?: string[]): Promise<void>;
  /** A local file to read `key` from (a remote store downloads it first); call `release` when done. */
  open(key: string): Promise<{ file: string; release(): Promise<void> }>;
}

/** Keys are relative, '/'-separated, without '.' or '..' segments. */
function checkKey(key: string): string {
  const parts = key.split('/');
  if (!key || key.startsWith('/') || key.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`invalid media key: ${key}`);
  }
  return key;
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
  };
}

/** The store MEDIA_STORE names ('local', the default). */
export function mediaStore(): MediaStore {
  const kind = process.env.MEDIA_STORE || 'local';
  if (kind === 'local') return localStore();
  throw new Error(`MEDIA_STORE=${kind} is not supported (only 'local')`);
}
