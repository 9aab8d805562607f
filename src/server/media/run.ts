/** Runs ffmpeg or ffprobe as a child process and collects what it prints. */
import { spawn } from 'node:child_process';
import { toolPath, type Tool } from './tools.ts';

export class ToolError extends Error {
  readonly stderr: string;
  constructor(message: string, stderr: string) {
    super(message);
    this.name = 'ToolError';
    this.stderr = stderr;
  }
}

// Enough of stderr to see why a run failed, without holding a long encode's whole log.
const STDERR_KEEP = 8_000;

/** Runs `tool` with `args`; resolves its stdout, rejects with a ToolError carrying the end of stderr. */
export function runTool(tool: Tool, args: string[], options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(tool), args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    const out: Buffer[] = [];
    let err = '';
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ToolError(`${tool}: ${error.message}`, err));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new ToolError(`${tool} exited with ${signal ?? code}`, err));
    });
  });
}
