/**
 * `npm run media:to-store`: copies media on local disk (the sample media shipped with the app, DATA_DIR/media) into
 * the bucket MEDIA_STORE names, so a CDN in front of the bucket serves every /media/ URL. Idempotent: an object of
 * the same size and MD5 is left as it is, so a second run copies nothing.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ListedObject, S3Store } from './s3-store.ts';

/** What one source directory gave. */
export interface CopyCount {
  dir: string;
  files: number;
  copied: number;
  skipped: number;
  bytes: number;
}

async function md5(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Relative '/'-separated paths of the regular files under `dir` (none when it is missing); dotfiles left out. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.') && !e.name.endsWith('.partial'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Whether the stored object already holds `file`'s bytes (single-part ETags are the MD5; others go by size). */
async function same(file: string, size: number, stored: ListedObject | undefined): Promise<boolean> {
  if (!stored || stored.size !== size) return false;
  const etag = stored.etag.replace(/"/g, '');
  return etag.includes('-') || etag === (await md5(file));
}

/** Copies every file under `dirs` into `store` by its relative path; an earlier directory wins a key both hold. */
export async function copyToStore(store: S3Store, dirs: string[]): Promise<CopyCount[]> {
  const existing = new Map<string, ListedObject>();
  for await (const o of store.list()) existing.set(o.key, o);
  const seen = new Set<string>();
  const counts: CopyCount[] = [];
  for (const dir of dirs) {
    const count: CopyCount = { dir, files: 0, copied: 0, skipped: 0, bytes: 0 };
    for (const key of await filesUnder(dir)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const file = path.join(dir, key);
      const { size } = await stat(file);
      count.files++;
      if (await same(file, size, existing.get(key))) {
        count.skipped++;
        continue;
      }
      await store.upload(file, key);
      count.copied++;
      count.bytes += size;
    }
    counts.push(count);
  }
  return counts;
}
