/** Where local state lives: DATA_DIR (default ./data), read per call so tests and tools can point it elsewhere. */
import path from 'node:path';

/** DATA_DIR as an absolute path. */
export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR || 'data');
}

/** Files being uploaded with tus (and their .json info files), before checks. */
export function uploadsDir(): string {
  return path.join(dataDir(), 'uploads');
}

/** Published media (served under /media/ by server.ts). */
export function mediaDir(): string {
  return path.join(dataDir(), 'media');
}
