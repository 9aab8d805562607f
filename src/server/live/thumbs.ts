/**
 * The picture /live shows for a broadcast: its latest key frame, decoded by ffmpeg every few seconds into a small WebP
 * in the media store (a new key each time, since media is cached as immutable; the previous one is deleted).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { logLine } from '../log.ts';
import { mediaStore } from '../media/store.ts';
import { setThumb } from '../services/live-broadcasts.ts';
import type { LiveStream } from './stream.ts';
import { runFfmpegOn } from './tool-pipe.ts';

/** How often a broadcast's picture is refreshed. */
export const THUMB_EVERY_MS = 5_000;
/** The picture's height (the width follows the stream's shape). */
const THUMB_HEIGHT = 360;

/** The media key of a broadcast's picture taken at `stamp`. */
export function thumbKey(roomId: number, stamp: number): string {
  return `live/${roomId}/frame-${stamp.toString(36)}.webp`;
}

/** Decodes `stream`'s latest key frame into a WebP file at `out`; false when there is no frame yet. */
export async function frameOf(stream: LiveStream, out: string): Promise<boolean> {
  const flv = stream.keyFrame();
  if (!flv) return false;
  await runFfmpegOn(flv, [
    '-frames:v',
    '1',
    '-vf',
    `scale=-2:${THUMB_HEIGHT}`,
    '-c:v',
    'libwebp',
    '-quality',
    '70',
    '-y',
    out,
  ]);
  return true;
}

/** Takes a new picture of the broadcast now; answers its key, or null when there was no new frame. */
export async function refreshThumb(stream: LiveStream, lastKeyAt: number): Promise<string | null> {
  if (stream.lastKeyAt === lastKeyAt) return null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sy-live-'));
  try {
    const file = path.join(dir, 'frame.webp');
    if (!(await frameOf(stream, file))) return null;
    const key = thumbKey(stream.roomId, Date.now());
    await mediaStore().put(file, key);
    const old = await setThumb(stream.roomId, key);
    if (old && old !== key) await mediaStore().remove([old]);
    return key;
  } catch (error) {
    logLine('warn', 'live thumbnail failed', { roomId: stream.roomId, error });
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
