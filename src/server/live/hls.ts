/**
 * HLS for browsers without Media Source Extensions (Safari on iOS): Debian's ffmpeg repackages a room's FLV into
 * MPEG-TS segments (stream copy, so a segment is one group of pictures: 1-2 s with the keyframe every 1-2 s that the
 * README asks of hosts) and a rolling playlist of the last few. Started on the first playlist request for a room on
 * this server and stopped once nobody has asked for HLS_IDLE_MS.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { logLine } from '../log.ts';
import { dataDir } from '../media/paths.ts';
import type { LiveStream, Subscriber } from './stream.ts';
import { ffmpegFromFlv, type Ffmpeg } from './tool-pipe.ts';

/** A packager nobody has asked for this long is stopped. */
const HLS_IDLE_MS = 30_000;
/** How long a first request waits for the playlist to exist. */
const HLS_FIRST_WAIT_MS = 10_000;
/** Segments listed in the playlist (older ones are deleted). */
const HLS_LIST_SIZE = 6;

interface Packager {
  dir: string;
  child: Ffmpeg;
  sub: Subscriber;
  stream: LiveStream;
  lastUsed: number;
  done: boolean;
}

const packagers = new Map<number, Packager>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function stop(roomId: number, p: Packager): void {
  if (packagers.get(roomId) === p) packagers.delete(roomId);
  p.stream.unsubscribe(p.sub);
  p.child.stdin.end();
  // ffmpeg writes its last segment on the end of its input, then the folder goes.
  setTimeout(() => {
    p.child.kill('SIGKILL');
    void rm(p.dir, { recursive: true, force: true });
  }, 5_000).unref();
}

function start(stream: LiveStream): Packager {
  const dir = path.join(dataDir(), 'live-hls', `${stream.roomId}-${randomBytes(4).toString('hex')}`);
  const { child, stderr } = ffmpegFromFlv([
    '-c',
    'copy',
    '-f',
    'hls',
    '-hls_time',
    '1',
    '-hls_list_size',
    String(HLS_LIST_SIZE),
    '-hls_flags',
    'delete_segments+independent_segments+omit_endlist',
    '-hls_segment_filename',
    path.join(dir, 's%d.ts'),
    path.join(dir, 'index.m3u8'),
  ]);
  const p: Packager = {
    dir,
    child,
    stream,
    lastUsed: Date.now(),
    done: false,
    sub: {
      write: (chunk) => child.stdin.write(chunk) || child.stdin.writableLength < 8 * 1024 * 1024,
      end: () => {
        p.done = true;
        stop(stream.roomId, p);
      },
    },
  };
  child.on('close', (code) => {
    p.done = true;
    if (code !== 0 && code !== null && packagers.get(stream.roomId) === p) {
      logLine('warn', 'live HLS packager stopped', { roomId: stream.roomId, code, stderr: stderr() });
    }
    if (packagers.get(stream.roomId) === p) stop(stream.roomId, p);
  });
  child.on('error', (error) => logLine('warn', 'live HLS packager failed to start', { error }));
  packagers.set(stream.roomId, p);
  sweeper ??= setInterval(() => {
    for (const [id, q] of packagers) if (Date.now() - q.lastUsed > HLS_IDLE_MS) stop(id, q);
  }, 5_000);
  sweeper.unref();
  void mkdir(dir, { recursive: true }).then(() => stream.subscribe(p.sub));
  return p;
}

/** The folder of a room's HLS files, packaging it from `stream` if not yet; null when no playlist came in time. */
export async function hlsDir(stream: LiveStream): Promise<string | null> {
  let p = packagers.get(stream.roomId);
  if (p && (p.done || p.stream !== stream)) {
    stop(stream.roomId, p);
    p = undefined;
  }
  p ??= start(stream);
  p.lastUsed = Date.now();
  const playlist = path.join(p.dir, 'index.m3u8');
  const until = Date.now() + HLS_FIRST_WAIT_MS;
  while (!existsSync(playlist)) {
    if (p.done || Date.now() > until) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
  return p.dir;
}

/** The folder of a room's HLS files if it is being packaged here (for its segments). */
export function packagedDir(roomId: number): string | null {
  const p = packagers.get(roomId);
  if (!p) return null;
  p.lastUsed = Date.now();
  return p.dir;
}

/** Stops every packager (the process is stopping). */
export function stopAllHls(): void {
  for (const [id, p] of packagers) stop(id, p);
  if (sweeper) clearInterval(sweeper);
  sweeper = undefined;
}
