/**
 * Read replicas: plain reads issued in a replica scope (read-scope.ts) go round-robin to a replica that is up and close
 * enough to the primary, and to the primary otherwise. A replica that fails a query is marked down and the query runs
 * on the primary at once, so a stopped replica costs a request one failed attempt and never an error; a timer
 * measures every replica's lag and brings it back when it answers and has caught up.
 */
import pg from 'pg';
import type { Log } from '../log.ts';
import { isDatabaseUnavailable } from './availability.ts';
import { replicaReadsAllowed, stickToPrimary } from './read-scope.ts';

export interface ReplicaOptions {
  /** A replica further behind than this (ms) serves nothing until it catches up. */
  maxLagMs: number;
  /** How often health and lag are measured (ms). */
  checkMs: number;
  /** Connections per replica. */
  max?: number;
  /** Wraps each replica's pool (client.ts passes its statement preparation). */
  wrapPool?: (pool: pg.Pool) => pg.Pool;
  /** Told of each state change of a replica (up, down, lagging). */
  log?: Log;
}

export type ReplicaState = 'unknown' | 'up' | 'down' | 'lagging';

interface Member {
  /** The URL without its password, for logs and status. */
  name: string;
  pool: pg.Pool;
  state: ReplicaState;
  lagMs: number | undefined;
  reads: number;
}

export interface ReplicaStatus {
  name: string;
  state: ReplicaState;
  lagMs: number | undefined;
  reads: number;
}

/** A connection to a stopped or unreachable replica gives up after this long (then the primary answers). */
const CONNECT_TIMEOUT_MS = 1_000;

/**
 * pg-pool's answer to a query that waited CONNECT_TIMEOUT_MS for one of a full pool's connections to come free: the
 * replica is busy, not gone (a connection that cannot be made fails as 'Connection terminated due to connection
 * timeout' or with a socket error instead).
 */
function isPoolBusy(error: unknown): boolean {
  return error instanceof Error && error.message === 'timeout exceeded when trying to connect';
}
/** A health check that takes longer than this counts as a failure. */
const CHECK_TIMEOUT_MS = 2_000;

type QueryFn = (...args: unknown[]) => Promise<unknown>;

/** PostgreSQL's 'X/Y' LSN as one number of bytes. */
export function parseLsn(lsn: string): bigint {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

// Selects that write or need the primary's session: NOTIFY, sequences, locks, settings, the primary's WAL position.
const NOT_PLAIN =
  /\b(for\s+(update|share|no\s+key\s+update|key\s+share)|pg_notify|nextval|setval|pg_advisory\w*|set_config|txid_current|pg_current_\w+)\b/i;

/** Whether a query text only reads (a SELECT with no locking clause and no function known to write). */
export function isPlainRead(text: string): boolean {
  return /^[\s(]*select\b/i.test(text) && !NOT_PLAIN.test(text);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && typeof (config as { text?: unknown }).text === 'string')
    return (config as { text: string }).text;
  return undefined;
}

/** The replicas of one primary, with their measured health and lag. */
export class ReplicaSet {
  readonly #primary: pg.Pool;
  readonly #members: Member[];
  readonly #options: ReplicaOptions;
  /** The primary's flushed WAL position at each check, oldest first: how far behind a replay position is, in time. */
  #samples: { at: number; lsn: bigint }[] = [];
  #next = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking: Promise<void> | undefined;
  /** Queries of replica-scoped work that the primary answered: writes, reads after them, reads with no replica up. */
  #primaryQueries = 0;

  constructor(primary: pg.Pool, urls: readonly string[], options: ReplicaOptions) {
    this.#primary = primary;
    this.#options = options;
    this.#members = urls.map((url) => {
      const pool = new pg.Pool({
        connectionString: url,
        max: options.max ?? 10,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      // A replica going away terminates its idle clients; unhandled, that would crash Node.
      pool.on('error', () => {});
      return {
        name: redact(url),
        pool: options.wrapPool ? options.wrapPool(pool) : pool,
        state: 'unknown' as ReplicaState,
        lagMs: undefined,
        reads: 0,
      };
    });
  }

  /** Starts measuring on a timer (the first measurement at once); resolves after it. */
  start(): Promise<void> {
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.check(), this.#options.checkMs);
      this.#timer.unref?.();
    }
    return this.check();
  }

  /** One round of measurements: the primary's WAL position, then each replica's replay position (one at a time). */
  check(): Promise<void> {
    return (this.#checking ??= this.#measure().finally(() => (this.#checking = undefined)));
  }

  async #measure(): Promise<void> {
    const now = Date.now();
    try {
      const { rows } = await this.#primary.query<{ lsn: string }>({
        text: 'select pg_current_wal_flush_lsn()::text as lsn',
        query_timeout: CHECK_TIMEOUT_MS,
      } as pg.QueryConfig);
      this.#samples.push({ at: now, lsn: parseLsn(rows[0]!.lsn) });
    } catch {
      // Without the primary's position nothing can be said about lag: states stay as they were.
      return;
    }
    // Keep enough history to tell how far behind a replica within the bound is, and one older sample.
    const horizon = now - this.#options.maxLagMs - 2 * this.#options.checkMs;
    while (this.#samples.length > 2 && this.#samples[1]!.at < horizon) this.#samples.shift();
    await Promise.all(this.#members.map((m) => this.#measureOne(m)));
  }

  async #measureOne(m: Member): Promise<void> {
    try {
      const { rows } = await m.pool.query<{ recovery: boolean; replay: string | null }>({
        text: 'select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as replay',
        query_timeout: CHECK_TIMEOUT_MS,
      } as pg.QueryConfig);
      const row = rows[0]!;
      // A promoted server (no longer in recovery) has its own history now: it is no replica of this primary.
      if (!row.recovery || !row.replay) return this.#set(m, 'down', undefined, 'not in recovery');
      const lag = this.#lagOf(parseLsn(row.replay));
      this.#set(m, lag <= this.#options.maxLagMs ? 'up' : 'lagging', lag);
    } catch (error) {
      this.#set(m, 'down', undefined, error);
    }
  }

  /**
   * How stale a replay position is: the time since the newest sample of the primary it has reached. Comparing WAL
   * positions rather than `now() - pg_last_xact_replay_timestamp()` keeps an idle primary from looking like lag.
   */
  #lagOf(replay: bigint): number {
    const now = Date.now();
    for (let i = this.#samples.length - 1; i >= 0; i--) {
      if (this.#samples[i]!.lsn <= replay) return now - this.#samples[i]!.at;
    }
    return now - (this.#samples[0]?.at ?? now) + this.#options.maxLagMs + 1;
  }

  /** Records a replica's state; `cause` is why it went down: a reason of ours, or the error, logged by errorFields. */
  #set(m: Member, state: ReplicaState, lagMs: number | undefined, cause?: unknown): void {
    const was = m.state;
    m.state = state;
    m.lagMs = lagMs;
    if (was !== state)
      this.#options.log?.(state === 'up' ? 'info' : 'warn', `db.replica.${state}`, {
        replica: m.name,
        lagMs,
        ...(typeof cause === 'string' ? { reason: cause } : cause === undefined ? {} : { error: cause }),
      });
  }

  /** The next replica that is up, round-robin; none when all are down or behind. */
  pick(): Member | undefined {
    const n = this.#members.length;
    for (let i = 0; i < n; i++) {
      const m = this.#members[(this.#next + i) % n]!;
      if (m.state === 'up') {
        this.#next = (this.#next + i + 1) % n;
        return m;
      }
    }
    return undefined;
  }

  /**
   * Routes `pool.query` (the Drizzle handle's non-transaction queries): a plain read in a replica scope goes to a
   * replica, anything else to the primary (and the scope reads the primary from then on). Transactions check out a
   * client with `pool.connect()`, so they always run on the primary, and the reads after one do too.
   */
  route(pool: pg.Pool): pg.Pool {
    const primaryQuery = pool.query.bind(pool) as QueryFn;
    const primaryConnect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    (pool as { connect: unknown }).connect = (...args: unknown[]) => {
      stickToPrimary();
      return primaryConnect(...args);
    };
    (pool as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const allowed = replicaReadsAllowed();
      if (allowed === undefined) return primaryQuery(config, ...rest);
      const text = textOf(config);
      if (!allowed || text === undefined || !isPlainRead(text)) {
        stickToPrimary();
        this.#primaryQueries++;
        return primaryQuery(config, ...rest);
      }
      // A callback-style call is left to the primary: the fallback below needs the promise.
      const m = rest.some((a) => typeof a === 'function') ? undefined : this.pick();
      if (!m) {
        this.#primaryQueries++;
        return primaryQuery(config, ...rest);
      }
      m.reads++;
      return (m.pool.query as QueryFn)(config, ...rest).catch((error: unknown) => {
        // Whatever went wrong (gone, restarting, a query cancelled by replay, every connection busy), the primary
        // answers instead; only a replica that cannot be reached is taken out, until the timer finds it back. A busy one
        // stays in: taking it out at its peak would send the whole peak to the primary.
        if (isDatabaseUnavailable(error) && !isPoolBusy(error)) this.#set(m, 'down', undefined, error);
        this.#primaryQueries++;
        return primaryQuery(config, ...rest);
      });
    };
    return pool;
  }

  /** Each replica's state, lag and the queries sent to it, and the queries of replica-scoped work the primary answered. */
  status(): { replicas: ReplicaStatus[]; primaryQueries: number } {
    return {
      replicas: this.#members.map(({ name, state, lagMs, reads }) => ({ name, state, lagMs, reads })),
      primaryQueries: this.#primaryQueries,
    };
  }

  /** Stops measuring and closes the replicas' pools. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#checking?.catch(() => {});
    await Promise.all(this.#members.map((m) => m.pool.end().catch(() => {})));
  }
}
