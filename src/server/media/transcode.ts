/** The encoding pipeline's ffmpeg invocations: the whole ladder in one pass (decode once), and poster frames. */
import path from 'node:path';
import type { Gear } from '../../shared/studio.ts';
import { GEAR_MAX_RATE, gearSize, ladderFor } from './ladder.ts';
import { runTool } from './run.ts';

export interface RenditionPlan {
  gear: Gear;
  width: number;
  height: number;
  file: string;
}

/** One output per gear of a source of this displayed size, named `<gear>.mp4` in `dir`. */
export function planLadder(width: number, height: number, dir: string): RenditionPlan[] {
  return ladderFor(width, height).map((gear) => ({ gear, ...gearSize(width, height, gear), file: path.join(dir, `${gear}.mp4`) }));
}

/**
 * ffmpeg arguments that encode every rendition of `plans` from `source` in one run: H.264 (High, yuv420p, CRF 23
 * capped at the gear's rate) and AAC stereo in MP4 with the index first (+faststart, so playback starts before the
 * whole file arrives); metadata (a phone's location, say) is dropped.
 */
export function ladderArgs(source: string, plans: RenditionPlan[]): string[] {
  const split = plans.length > 1 ? `[0:v]split=${plans.length}${plans.map((_, i) => `[s${i}]`).join('')};` : '';
  const scales = plans.map((p, i) => `[${plans.length > 1 ? `s${i}` : '0:v'}]scale=${p.width}:${p.height}:flags=bicubic,setsar=1,format=yuv420p[v${i}]`);
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-i', source, '-filter_complex', split + scales.join(';')];
  plans.forEach((p, i) => {
    const rate = GEAR_MAX_RATE[p.gear];
    args.push(
      '-map', `[v${i}]`, '-map', '0:a:0?',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high',
      '-maxrate', String(rate), '-bufsize', String(rate * 2),
      '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
      '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', p.file,
    );
  });
  return args;
}

/** Encodes the ladder; resolves when every file is written. */
export async function encodeLadder(source: string, plans: RenditionPlan[], signal?: AbortSignal): Promise<void> {
  await runTool('ffmpeg', ladderArgs(source, plans), { signal });
}

/** ffmpeg arguments for one WebP frame at `atSec`, scaled to `width`×`height`. */
export function posterArgs(source: string, atSec: number, width: number, height: number, out: string): string[] {
  return [
    '-hide_banner', '-nostdin', '-y', '-v', 'error',
    '-ss', atSec.toFixed(3), '-i', source,
    '-frames:v', '1', '-vf', `scale=${width}:${height}:flags=bicubic,setsar=1`,
    '-c:v', 'libwebp', '-quality', '80', '-f', 'webp', out,
  ];
}

/** Writes a WebP poster of `source` at `atSec` (clamped into the video), or of an image when `atSec` is 0. */
export async function extractPoster(source: string, atSec: number, durationMs: number, size: { width: number; height: number }, out: string): Promise<void> {
  const latest = Math.max(0, durationMs / 1000 - 0.1);
  await runTool('ffmpeg', posterArgs(source, Math.min(Math.max(0, atSec), latest), size.width, size.height, out), { timeoutMs: 60_000 });
}
