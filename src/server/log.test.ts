import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config.ts';
import { contextOfRequest } from './http/request-context.ts';
import { inRequest } from './http/request-scope.ts';
import { formatLine, logLine } from './log.ts';

const NOW = new Date('2025-03-04T05:06:07.089Z');

/** The line `formatLine` writes, parsed, after checking it is one line ending in a newline. */
function parsed(text: string): Record<string, unknown> {
  expect(text.endsWith('\n')).toBe(true);
  expect(text.slice(0, -1)).not.toContain('\n');
  return JSON.parse(text) as Record<string, unknown>;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** What is written to `stream` from now on, one entry per write. */
function capture(stream: NodeJS.WriteStream): string[] {
  const writes: string[] = [];
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  return writes;
}

describe('logLine', () => {
  it('writes exactly one line per call to stderr, and nothing to stdout', () => {
    const err = capture(process.stderr);
    const out = capture(process.stdout);
    logLine('info', 'jobs.process', { uploadId: 'u1' });
    logLine('warn', 'second');
    expect(out).toEqual([]);
    expect(err).toHaveLength(2);
    expect(parsed(err[0]!)).toMatchObject({ level: 'info', msg: 'jobs.process', uploadId: 'u1' });
    expect(parsed(err[1]!)).toMatchObject({ level: 'warn', msg: 'second' });
  });

  it('leaves a process whose stderr reader died serving and idle, as the server handles uncaught errors', async () => {
    // A child with the server's handler logs into a pipe whose other end is closed, then says on stdout, after a
    // timer, how much CPU it spent. Before, the stream's EPIPE came back as an uncaught error that was logged again:
    // the process spun on a core and never reached its timer.
    const log = new URL('./log.ts', import.meta.url).href;
    const script = `
      const { logLine } = await import(${JSON.stringify(log)});
      process.on('uncaughtException', (error) => logLine('error', 'uncaughtException', { error }));
      setTimeout(() => { for (let i = 0; i < 20; i++) logLine('info', 'after the reader died', { i }); }, 200);
      setTimeout(() => {
        const { user, system } = process.cpuUsage();
        process.stdout.write(JSON.stringify({ cpuMs: (user + system) / 1000 }));
        process.exit(0);
      }, 2200);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.on('exit', resolve)),
      new Promise<'spinning'>((resolve) => setTimeout(() => resolve('spinning'), 15_000)),
    ]);
    if (code === 'spinning') child.kill('SIGKILL');
    expect(code).toBe(0);
    // Starting Node and loading the module cost a few hundred milliseconds of CPU; the two seconds it waits cost
    // two when it spins.
    const { cpuMs } = JSON.parse(out) as { cpuMs: number };
    expect(cpuMs).toBeLessThan(1_000);
  }, 20_000);

  it('does not throw when stderr does', () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => {
      throw new Error('EPIPE');
    });
    expect(() => logLine('error', 'lost')).not.toThrow();
  });
});

describe('the request a line was written for', () => {
  it('is named by its id on every line written on its behalf, later ones too, and no field takes its place', async () => {
    const context = contextOfRequest(new Request('http://shanying.test/api/x'), undefined, loadConfig({}));
    const lines = await inRequest(context, async () => {
      const first = parsed(formatLine('info', 'one', { requestId: 'forged' }, NOW));
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [first, parsed(formatLine('warn', 'two', {}, NOW))];
    });
    expect(lines.map((line) => line.requestId)).toEqual([context.id, context.id]);
    expect(Object.keys(lines[0]!).slice(0, 4)).toEqual(['t', 'level', 'msg', 'requestId']);
    expect(parsed(formatLine('info', 'outside', {}, NOW))).not.toHaveProperty('requestId');
  });
});

describe('formatLine', () => {
  it('puts t, level and msg first, then the fields in their order, leaving undefined ones out', () => {
    const line = formatLine('info', 'db.ready', { ms: 12, embedded: true, gone: undefined, port: 5432 }, NOW);
    expect(Object.keys(parsed(line))).toEqual(['t', 'level', 'msg', 'ms', 'embedded', 'port']);
    expect(line).toBe(
      '{"t":"2025-03-04T05:06:07.089Z","level":"info","msg":"db.ready","ms":12,"embedded":true,"port":5432}\n',
    );
  });

  it('keeps t, level and msg whatever the fields say', () => {
    const line = parsed(formatLine('warn', 'real', { t: 'forged', level: 'info', msg: 'forged', extra: 1 }, NOW));
    expect(line).toEqual({ t: NOW.toISOString(), level: 'warn', msg: 'real', extra: 1 });
  });

  it('describes an Error under `error` by errorFields, joined into the line, without its message when it may quote input', () => {
    const error = new TypeError('boom');
    const line = parsed(formatLine('error', 'request failed', { path: '/x', error }, NOW));
    expect(Object.keys(line)).toEqual(['t', 'level', 'msg', 'path', 'error', 'message', 'stack']);
    expect(line).toMatchObject({ error: 'TypeError', message: 'boom' });
    expect(line.stack).toMatch(/^\s+at /);

    let syntax: unknown;
    try {
      JSON.parse('{"password": "hunter2"');
    } catch (e) {
      syntax = e;
    }
    expect(formatLine('error', 'bad', { error: syntax }, NOW)).not.toContain('hunter2');
  });

  it('lets a later field take back what errorFields added (a line without the stack)', () => {
    const line = parsed(formatLine('warn', 'readiness', { error: new Error('down'), stack: undefined }, NOW));
    expect(line).toEqual({ t: NOW.toISOString(), level: 'warn', msg: 'readiness', error: 'Error', message: 'down' });
  });

  it("keeps a string under `error` (the caller's words) and gives anything else thrown by its type only", () => {
    expect(parsed(formatLine('warn', 'pg pool error', { error: 'connection lost' }, NOW)).error).toBe(
      'connection lost',
    );
    const thrown = parsed(
      formatLine('error', 'unhandledRejection', { error: { status_code: 500, body: 'secret path' } }, NOW),
    );
    expect(thrown.error).toBe('object');
    expect(JSON.stringify(thrown)).not.toContain('secret');
  });

  it('describes an Error under another key by errorFields in place', () => {
    const line = parsed(formatLine('warn', 'retry', { cause: new RangeError('too far'), attempt: 2 }, NOW));
    expect(line.cause).toMatchObject({ error: 'RangeError', message: 'too far' });
    expect(line.attempt).toBe(2);
  });

  it('keeps a newline in msg or a field on the one line', () => {
    const text = formatLine('error', 'first\nsecond', { detail: 'a\r\nb' }, NOW);
    expect(text.split('\n')).toHaveLength(2);
    expect(parsed(text)).toMatchObject({ msg: 'first\nsecond', detail: 'a\r\nb' });
  });

  it('still writes the line when a field is circular or a BigInt', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    const shared = { n: 1 };
    const line = parsed(formatLine('warn', 'odd', { loop, big: 12345678901234567890n, twice: [shared, shared] }, NOW));
    expect(line).toMatchObject({ msg: 'odd', loop: { name: 'loop', self: '[Circular]' }, big: '12345678901234567890' });
    // The same object twice, not inside itself, is no loop.
    expect(line.twice).toEqual([{ n: 1 }, { n: 1 }]);
  });

  it('still writes the event when a field cannot be serialised at all', () => {
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
    };
    const line = parsed(formatLine('error', 'kept', { hostile }, NOW));
    expect(line).toEqual({
      t: NOW.toISOString(),
      level: 'error',
      msg: 'kept',
      logError: 'fields could not be serialised',
    });
  });
});
