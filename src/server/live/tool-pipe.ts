/** ffmpeg fed on its standard input (an FLV stream or a few tags), for thumbnails, HLS and recordings. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { toolPath } from '../media/tools.ts';

export type Ffmpeg = ChildProcessByStdio<Writable, null, Readable>;

// Enough of stderr to say why a run failed.
const STDERR_KEEP = 4_000;

/** Starts ffmpeg reading FLV from stdin with `args` after the input; `stderr()` answers the end of what it said. */
export function ffmpegFromFlv(args: string[]): { child: Ffmpeg; stderr: () => string } {
  const child = spawn(
    toolPath('ffmpeg'),
    ['-hide_banner', '-loglevel', 'error', '-f', 'flv', '-i', 'pipe:0', ...args],
    {
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  // A viewer-side end (ffmpeg quit first) is not an error of the server's.
  child.stdin.on('error', () => {});
  return { child, stderr: () => err };
}

/** Runs ffmpeg over `input` (a whole small FLV) to completion; rejects with its stderr. */
export function runFfmpegOn(input: Buffer, args: string[], timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const { child, stderr } = ffmpegFromFlv(args);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr()}`));
    });
    child.stdin.end(input);
  });
}
