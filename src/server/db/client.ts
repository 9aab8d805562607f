/**
 * The pg pool and Drizzle handle of this process, pointed at DATABASE_URL (set by server.ts to the embedded server
 * when unset), with plain reads of anonymous requests sent to DATABASE_REPLICA_URLS when there are any (replicas.ts);
 * and beside it the feed's small pool for its ranking reads (feedDb).
 */
import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { config } from '../config.ts';
import { logLine } from '../log.ts';
import { ReplicaSet } from './replicas.ts';
import { retryTransactions } from './retry.ts';
import * as schema from './schema.ts';
import { databaseSettings } from './settings.ts';

export type Db = NodePgDatabase<typeof schema>;

let pool: pg.Pool | undefined;
let handle: Db | undefined;
/** The handle db() opened itself from the configuration (a test or a benchmark may set another: useDb). */
let own: Db | undefined;
let replicas: ReplicaSet | undefined;
/** The feed's pool (feedDb): opened by this module beside its own `handle`, or set by useFeedDb. */
let feed: { db: Db; pool?: pg.Pool; replicas?: ReplicaSet; of: Db } | undefined;

/** A query text is prepared once it has been seen this many times (one-off statements stay unnamed). */
const PREPARE_AFTER = 2;
/** At most this many named statements per pool (each connection keeps a plan per name it has run). */
const MAX_PREPARED = 400;

type QueryConfig = { text?: unknown; name?: unknown };

/**
 * Makes the pool run repeated query texts as named prepared statements, which node-postgres parses once per
 * connection: PostgreSQL then skips parsing and planning, which costs more than running our hot reads (a comment
 * page: 2.8 ms unnamed, 0.3 ms named, measured on one connection). postgres.js and pgx prepare the same way by
 * default. A transaction's statements are named the same way: a like is eight statements, each planned afresh unnamed.
 */
export function preparePool(p: pg.Pool, maxPrepared = MAX_PREPARED): pg.Pool {
  const seen = new Map<string, number>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || names.size >= maxPrepared) return known;
    const count = (seen.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      if (seen.size >= maxPrepared * 4) seen.clear();
      seen.set(text, count);
      return undefined;
    }
    seen.delete(text);
    const name = `sy${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  // On each client: a transaction's statements go to the client it checked out, and pool.query's to a client too.
  p.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      if (
        config &&
        typeof config === 'object' &&
        typeof (config as QueryConfig).text === 'string' &&
        !(config as QueryConfig).name
      ) {
        const name = nameOf((config as { text: string }).text);
        if (name) return query({ ...config, name }, ...rest);
      }
      return query(config, ...rest);
    };
  });
  return p;
}

/**
 * Gives every client of `p` an 'error' listener of its own for as long as it lives. The pool listens only while a
 * client is idle (and during `pool.query`); a client checked out for a transaction whose server goes away (a failover,
 * a restart) emits 'error' with nobody listening, which would end the process. The statement in flight still fails
 * with the error (the request answers 503), and the pool drops the client when it is released.
 */
export function keepClientErrors(p: pg.Pool): pg.Pool {
  p.on('connect', (client) => {
    client.on('error', (error) => logLine('warn', 'pg client error', { error }));
  });
  return p;
}

export interface ConnectOptions {
  /** Connections in the pool (and in each replica's). */
  max?: number;
  /** false runs every statement unnamed: behind PgBouncer in transaction mode a named statement is lost between connections. */
  prepare?: boolean;
  /** Read replicas for plain reads in a replica scope (read-scope.ts). */
  replicaUrls?: readonly string[];
  /** A replica further behind than this serves no reads. */
  maxLagMs?: number;
  /** How often replica health and lag are measured. */
  checkMs?: number;
}

/** Opens a Drizzle handle on a new pool for `url` (tests use one per cloned database), with its replicas if any. */
export function connect(
  url: string,
  maxOrOptions: number | ConnectOptions = 10,
): { db: Db; pool: pg.Pool; replicas?: ReplicaSet } {
  const options = typeof maxOrOptions === 'number' ? { max: maxOrOptions } : maxOrOptions;
  const { max = 10, prepare = true, replicaUrls = [] } = options;
  const wrap = (p: pg.Pool) => keepClientErrors(prepare ? preparePool(p) : p);
  const p = wrap(new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 }));
  // A fast shutdown of PostgreSQL terminates idle clients (57P01); unhandled, that would crash Node.
  p.on('error', (error) => logLine('warn', 'pg pool error', { error }));
  let set: ReplicaSet | undefined;
  if (replicaUrls.length > 0) {
    set = new ReplicaSet(p, replicaUrls, {
      maxLagMs: options.maxLagMs ?? 5_000,
      checkMs: options.checkMs ?? 1_000,
      max,
      wrapPool: wrap,
      log: logLine,
    });
    set.route(p);
    // Until the first measurement, reads stay on the primary.
    set.start().catch(() => {});
  }
  return { db: retryTransactions(drizzle(p, { schema })), pool: p, ...(set ? { replicas: set } : {}) };
}

/** The process-wide pool's options from the configuration, with at most `max` connections. */
function settingsFor(max: number): { url: string; options: ConnectOptions } {
  const settings = databaseSettings();
  if (!settings.url)
    throw new Error('DATABASE_URL is not set: start the portal with `npm start` (server.ts starts the database)');
  const { url, prepare, replicaUrls, maxLagMs, checkMs } = settings;
  return { url, options: { max, prepare, replicaUrls, maxLagMs, checkMs } };
}

/** The process-wide database handle. */
export function db(): Db {
  if (!handle) {
    const { url, options } = settingsFor(config().PG_POOL_MAX);
    ({ db: handle, pool, replicas } = connect(url, options));
    own = handle;
  }
  return handle;
}

/**
 * The handle for the feed's ranking reads (a viewer's signals, their works' facts, their candidates, later slices):
 * a pool of its own beside db()'s, of PG_FEED_POOL_MAX connections, so that these few heavy statements run on about
 * as many backends as the database has cores while the short reads of pages keep db()'s ten. Spread over ten
 * backends on two cores, a long history's feed cost PostgreSQL 7.9-8.3 ms of CPU per call at 20 callers, against
 * 3.6 ms over two (bench:scale, a million videos). With PG_FEED_POOL_MAX=0, or when a test or a benchmark has set
 * the process-wide handle (useDb) and not this one (useFeedDb), it is db().
 */
export function feedDb(): Db {
  const main = db();
  if (feed?.of === main) return feed.db;
  const max = config().PG_FEED_POOL_MAX;
  if (main !== own || max === 0) return main;
  // The primary alone: a member's reads are never sent to a replica (read-scope.ts), and a visitor's feed reads none
  // of these.
  const { url, options } = settingsFor(max);
  const opened = connect(url, { ...options, replicaUrls: [] });
  feed = { ...opened, of: main };
  return opened.db;
}

/** Sets the feed's handle beside the process-wide one (a benchmark that opens its pools as a server does). */
export function useFeedDb(next: Db): void {
  feed = { db: next, of: db() };
}

/** The process-wide replicas' state and read counts (none without DATABASE_REPLICA_URLS). */
export function replicaStatus(): ReturnType<ReplicaSet['status']> | undefined {
  return replicas?.status();
}

const switched = new Set<() => void>();

/**
 * Calls `forget` whenever the process-wide handle is pointed at another database: what a process keeps of its database's
 * reads (caches of answers, words, works' facts) belongs to that database. A server points it once, at start; test
 * files sharing one process each point it at their own clone, and must not read what the file before them kept.
 */
export function onDbSwitch(forget: () => void): void {
  switched.add(forget);
}

/** Sets the process-wide handle (tests point it at their own cloned database). */
export function useDb(next: Db): void {
  if (handle !== next) for (const forget of switched) forget();
  handle = next;
}

/**
 * Runs a statement compiled ahead of time (drizzle's `sqlToQuery` once, then `fillPlaceholders` per call) on the pool
 * behind `on` (db() unless said): for a hot read whose template cost as much to build and compile as PostgreSQL took to run it.
 */
export async function queryCompiled<R extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
  on: Db = db(),
): Promise<R[]> {
  const client = (on as Db & { $client: pg.Pool }).$client;
  return (await client.query<R>({ text, values })).rows;
}

/**
 * An integer written into a statement's text rather than sent as a parameter: a named statement's generic plan then
 * knows how many rows a `LIMIT` keeps. A parameter there is guessed at a tenth of the table, which made a bounded read
 * look like a scan of every work, so PostgreSQL planned the statement afresh at every call (2 to 3 ms at a million
 * videos). For sizes the code fixes or clamps, and values from a short fixed list, so that few texts serve every call.
 */
export function intLiteral(x: number): SQL {
  const n = Math.trunc(x);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${x}`);
  return sql.raw(String(n));
}

/**
 * `intLiteral` for a query builder's `.limit()`. Drizzle writes an SQL chunk given there into the text as it is; its
 * signature names only numbers and placeholders, hence the cast.
 */
export const limitLiteral = (x: number): number => intLiteral(x) as unknown as number;

/**
 * A named placeholder where a query template takes a number (a viewer's id), for a statement built once and run with
 * values (drizzle's prepared queries, `sqlToQuery` with `fillPlaceholders`): compiled, it is a parameter like any
 * other. The templates' signatures name only numbers, hence the cast.
 */
export const numberPlaceholder = (name: string): number => sql.placeholder(name) as unknown as number;

/** Closes the process-wide pool and the feed's, if they were opened here. */
export async function closeDb(): Promise<void> {
  const p = pool;
  const r = replicas;
  const f = feed;
  pool = undefined;
  handle = undefined;
  own = undefined;
  replicas = undefined;
  feed = undefined;
  await Promise.all([r?.close(), f?.replicas?.close()]);
  await Promise.all([p?.end(), f?.pool?.end()]);
}
