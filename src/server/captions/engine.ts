/**
 * The caption engine: any program that takes an audio file and prints WebVTT (whisper.cpp behind a small script, a
 * cloud service's client, …). CAPTION_ENGINE names it as a command line (split on spaces, no shell); the audio file's
 * path is appended as its last argument. Unset, no captions are written automatically.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { CAPTION_MAX_BYTES } from '../../shared/captions.ts';
import { runTool } from '../media/run.ts';

/** How long one engine run may take before it is killed. */
export const ENGINE_TIMEOUT_MS = 10 * 60_000;

/** CAPTION_ENGINE as argv, or null when it is not set. */
export function captionEngine(env: NodeJS.ProcessEnv = process.env): string[] | null {
  const argv = (env.CAPTION_ENGINE ?? '').trim().split(/\s+/).filter(Boolean);
  return argv.length > 0 ? argv : null;
}

/** Writes the audio of `source` as 16 kHz mono 16-bit WAV (what speech engines such as whisper.cpp read) to `out`. */
export async function extractAudio(source: string, out: string, signal?: AbortSignal): Promise<void> {
  await runTool(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-v',
      'error',
      '-i',
      source,
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      out,
    ],
    { signal, timeoutMs: 5 * 60_000 },
  );
}

export class EngineError extends Error {
  override name = 'EngineError';
}

/**
 * Runs the engine on `audioFile`; resolves what it printed. Output past the caption size cap, a non-zero exit or a run
 * past ENGINE_TIMEOUT_MS rejects with an EngineError (its stderr's end kept for the log).
 */
export function runEngine(
  argv: string[],
  audioFile: string,
  signal?: AbortSignal,
  timeoutMs = ENGINE_TIMEOUT_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, [...argv.slice(1), audioFile], { stdio: ['ignore', 'pipe', 'pipe'], signal });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    let failure: string | null = null;
    const timer = setTimeout(() => {
      failure = 'timed out';
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > CAPTION_MAX_BYTES) {
        failure = 'printed more than the caption size cap';
        child.kill('SIGKILL');
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new EngineError(`caption engine: ${error.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (failure) reject(new EngineError(`caption engine ${failure}`));
      else if (code !== 0) reject(new EngineError(`caption engine exited with ${sig ?? code}: ${err.trim()}`));
      else resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}

/** Removes a scratch file, ignoring one already gone. */
export const dropScratch = (file: string) => rm(file, { force: true });
