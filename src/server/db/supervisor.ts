/** Keeps the embedded PostgreSQL running: when its postmaster exits unasked, it is started again with backoff. */
import type { Log } from '../log.ts';
import type { EmbeddedServer } from './embedded.ts';

/** First wait before a restart, doubled after each failed attempt up to RESTART_MAX_MS. */
export const RESTART_MIN_MS = 500;
export const RESTART_MAX_MS = 5_000;

export interface Supervisor {
  /** False from the postmaster's exit until it is back. */
  readonly up: boolean;
  /** Stops restarting (before the server is stopped on purpose). */
  stop(): void;
}

export interface SuperviseOptions {
  /** Told of each event (exit, attempt failed, back up). */
  log: Log;
  minDelayMs?: number;
  maxDelayMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watches `server` and restarts it whenever it exits without having been stopped. */
export function supervise(server: Pick<EmbeddedServer, 'onExit' | 'restart'>, options: SuperviseOptions): Supervisor {
  const { log, minDelayMs = RESTART_MIN_MS, maxDelayMs = RESTART_MAX_MS } = options;
  let up = true;
  let stopped = false;
  let restarting = false;

  const restart = async (): Promise<void> => {
    if (restarting) return;
    restarting = true;
    const down = performance.now();
    let delay = minDelayMs;
    try {
      for (let attempt = 1; !stopped; attempt++) {
        await sleep(delay);
        if (stopped) return;
        try {
          await server.restart();
          up = true;
          log('info', 'db.postgres.restarted', { attempt, downMs: Math.round(performance.now() - down) });
          return;
        } catch (error) {
          log('warn', 'db.postgres.restart_failed', { attempt, error });
          delay = Math.min(delay * 2, maxDelayMs);
        }
      }
    } finally {
      restarting = false;
    }
  };

  server.onExit((code, signal) => {
    if (stopped) return;
    up = false;
    log('error', 'db.postgres.exited', { code, signal });
    void restart();
  });

  return {
    get up() {
      return up;
    },
    stop() {
      stopped = true;
    },
  };
}
