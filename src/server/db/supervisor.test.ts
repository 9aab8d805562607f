import { describe, expect, it } from 'vitest';
import { supervise } from './supervisor.ts';

/** A stand-in for the embedded server: `die()` fires its exit, `restart()` fails `failures` times first. */
function fakeServer(failures: number) {
  let listener: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  const attempts: number[] = [];
  return {
    attempts,
    die: () => listener?.(null, 'SIGKILL'),
    onExit: (l: typeof listener) => void (listener = l),
    restart: async () => {
      attempts.push(performance.now());
      if (attempts.length <= failures) throw new Error('postgres did not come up');
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('supervise', () => {
  it('restarts after an exit, doubling the wait after each failed attempt up to the maximum', async () => {
    const server = fakeServer(3);
    const events: string[] = [];
    const started = performance.now();
    const supervisor = supervise(server, { log: (_level, msg) => events.push(msg), minDelayMs: 20, maxDelayMs: 50 });
    server.die();
    expect(supervisor.up).toBe(false);
    while (!supervisor.up) await sleep(5);
    const waits = server.attempts.map((t, i) => t - (i === 0 ? started : server.attempts[i - 1]!));
    expect(waits).toHaveLength(4);
    // 20, 40, 50, 50 ms (timers may fire a little late, never early).
    waits.forEach((wait, i) => expect(wait).toBeGreaterThanOrEqual([20, 40, 50, 50][i]! - 2));
    expect(events).toEqual([
      'db.postgres.exited',
      'db.postgres.restart_failed',
      'db.postgres.restart_failed',
      'db.postgres.restart_failed',
      'db.postgres.restarted',
    ]);
  });

  it('does nothing once stopped (the server is being stopped on purpose)', async () => {
    const server = fakeServer(0);
    const supervisor = supervise(server, { log: () => {}, minDelayMs: 10 });
    supervisor.stop();
    server.die();
    await sleep(40);
    expect(server.attempts).toEqual([]);
  });
});
