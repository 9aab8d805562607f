/** Where local state lives: DATA_DIR (default ./data) and the folders under it. */
import path from 'node:path';
import { config } from '../config.ts';

/** DATA_DIR as an absolute path. */
export function dataDir(): string {
  return config().DATA_DIR;
}

/**
 * Files being uploaded with tus (and their .json info files), kept until processed: UPLOADS_DIR, default
 * DATA_DIR/uploads. Several app servers and separate workers must share it (one directory, or a network mount).
 */
export function uploadsDir(): string {
  return config().UPLOADS_DIR;
}

/** The folder under the media root that holds the works made in the studio, one subfolder per upload. */
export const WORKS_DIR = 'works';

/** Whether a video's media was made in the studio (only those have an encoded ladder; a seeded clip is one file). */
export function isStudioMedia(media: string): boolean {
  return media.startsWith(`${WORKS_DIR}/`);
}

/** Published media (served under /media/ by server.ts). */
export function mediaDir(): string {
  return path.join(dataDir(), 'media');
}
