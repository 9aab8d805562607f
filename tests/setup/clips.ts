/** Small media files made with ffmpeg for the upload tests: real clips, an audio-only file, a broken one, a fake. */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolPath } from '../../src/server/media/tools.ts';

function ffmpeg(args: string[]): void {
  execFileSync(toolPath('ffmpeg'), ['-hide_banner', '-nostdin', '-y', '-v', 'error', ...args], { stdio: 'pipe' });
}

/**
 * A test-pattern clip with a tone: `seconds` long, `width`×`height`, H.264/AAC (mp4/mov/mkv) or VP8/Vorbis (webm),
 * in the container its extension names unless `format` says another.
 */
export function makeClip(
  dir: string,
  name: string,
  o: {
    seconds?: number;
    width?: number;
    height?: number;
    audio?: boolean;
    format?: 'mp4' | 'mov' | 'matroska' | 'webm';
  } = {},
): string {
  const { seconds = 2, width = 180, height = 320, audio = true } = o;
  const file = path.join(dir, name);
  const webm = o.format ? o.format === 'webm' : name.endsWith('.webm');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=15:duration=${seconds}`,
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
    ...(webm
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', '-c:a', 'libopus']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac']),
    '-shortest',
    ...(o.format ? ['-f', o.format] : []),
    file,
  ]);
  return file;
}

/** An audio-only MP4 (a tone in AAC), named .mp4. */
export function makeAudioOnly(dir: string, name = 'audio.mp4'): string {
  const file = path.join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac', '-f', 'mp4', file]);
  return file;
}

/** The first `keep` share of a clip whose index (moov) is written last: the container cannot be read. */
export function makeTruncated(dir: string, source: string, keep = 0.5, name = 'truncated.mp4'): string {
  const bytes = readFileSync(source);
  const file = path.join(dir, name);
  writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * keep)));
  return file;
}

/** A text file renamed .mp4. */
export function makeFakeVideo(dir: string, name = 'notes.mp4'): string {
  const file = path.join(dir, name);
  writeFileSync(file, '这不是视频，只是一段文字。\n'.repeat(200));
  return file;
}

/** A small PNG image. */
export function makeImage(dir: string, name = 'cover.png'): string {
  const file = path.join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:duration=1', '-frames:v', '1', file]);
  return file;
}
