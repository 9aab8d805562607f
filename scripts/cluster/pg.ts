/**
 * A throwaway PostgreSQL primary with streaming replicas, and PgBouncer in front of it, from Debian's packages
 * (`postgresql`, `pgbouncer`), in a temp dir on free ports: for the replica tests and `npm run cluster`.
 * Run as root, the servers run as the `postgres` user (PostgreSQL and PgBouncer both refuse root); as another user,
 * as that user. A missing binary is an error that names the package, never a silent skip.
 *
 *   const c = await startPgCluster({ replicas: 1, pgbouncer: true });
 *   c.primary.url('shanying'); c.replicas[0].url('shanying'); c.pgbouncer.url('shanying');
 *   await c.replicas[0].pauseReplay(); await c.replicas[0].stop(); await c.replicas[0].start();
 *   await c.stop();
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/server/free-port.ts';

export interface PgServer {
  port: number;
  dataDir: string;
  /** postgres://postgres@127.0.0.1:port/<database> (trust authentication on 127.0.0.1). */
  url(database?: string): string;
  /** Runs one statement on a short-lived connection; answers its rows. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, database?: string): Promise<R[]>;
  /** Starts the server again after `stop()`. */
  start(): Promise<void>;
  /** Stops it (fast shutdown); a no-op when stopped. */
  stop(): Promise<void>;
}

export interface PgReplica extends PgServer {
  /** Stops applying WAL (it keeps receiving): reads see the primary as it was. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
}

export interface PgBouncer {
  port: number;
  /** postgres://postgres@127.0.0.1:port/<database>, through the pooler. */
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface PgCluster {
  primary: PgServer;
  replicas: PgReplica[];
  pgbouncer?: PgBouncer;
  /** Where everything lives (removed by stop()). */
  dir: string;
  stop(): Promise<void>;
}

/** The newest /usr/lib/postgresql/<version>/bin, or PG_BIN. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: apt-get install -y postgresql (or set PG_BIN)',
    );
  return path.join(root, newest, 'bin');
}

/** pgbouncer from PATH or /usr/sbin. */
export function pgbouncerBin(): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']) {
    const candidate = path.join(dir, 'pgbouncer');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error('pgbouncer not found: apt-get install -y pgbouncer');
}

const asRoot = process.getuid?.() === 0;

/** Runs a command as the postgres user (when root) and waits for it; its output is in the error when it fails. */
function run(cmd: string, args: string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${code}: ${output.trim()}`)),
    );
  });
}

async function ownedByPostgres(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o700);
  if (!asRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  await chown(dir, uid, gid);
}

const urlOf =
  (port: number) =>
  (database = 'postgres') =>
    `postgres://postgres@127.0.0.1:${port}/${database}`;

async function queryOn<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Waits until `url` accepts a query (a server starting, a replica that must reach consistency). */
export async function waitReady(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await queryOn(url, 'select 1');
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function server(bin: string, dataDir: string, port: number): PgServer {
  const url = urlOf(port);
  let running = false;
  return {
    port,
    dataDir,
    url,
    query: (text, database) => queryOn(url(database), text),
    async start() {
      if (running) return;
      await run(path.join(bin, 'pg_ctl'), [
        '-D',
        dataDir,
        '-l',
        path.join(dataDir, 'server.log'),
        '-w',
        '-t',
        '60',
        'start',
      ]);
      running = true;
      await waitReady(url());
    },
    async stop() {
      if (!running) return;
      running = false;
      await run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
  };
}

// Throwaway servers: durability is not wanted, speed is; enough WAL senders and connections for a few replicas.
const CONFIG = (port: number, socketDir: string) => `
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${socketDir}'
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = replica
max_wal_senders = 10
hot_standby = on
max_connections = 200
`;

/** initdb and start a primary in `dir` (trust on 127.0.0.1, replication allowed). */
export async function startPrimary(dir: string, port?: number): Promise<PgServer> {
  const bin = postgresBin();
  const dataDir = path.join(dir, 'primary');
  await ownedByPostgres(dataDir);
  const p = port ?? (await freePort());
  await run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  await appendFile(path.join(dataDir, 'postgresql.conf'), CONFIG(p, dataDir));
  const s = server(bin, dataDir, p);
  await s.start();
  return s;
}

/** Clones `primary` with pg_basebackup into `dir` and starts it as a streaming replica. */
export async function startReplica(primary: PgServer, dir: string, port?: number): Promise<PgReplica> {
  const bin = postgresBin();
  const dataDir = path.join(dir, `replica-${primary.port}-${Date.now()}`);
  await ownedByPostgres(dataDir);
  const p = port ?? (await freePort());
  await run(path.join(bin, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
    '-c',
    'fast',
  ]);
  // The copied configuration names the primary's port and socket; the last setting of a file wins.
  await appendFile(path.join(dataDir, 'postgresql.conf'), `\nport = ${p}\nunix_socket_directories = '${dataDir}'\n`);
  await rm(path.join(dataDir, 'postmaster.pid'), { force: true });
  const s = server(bin, dataDir, p);
  await s.start();
  return {
    ...s,
    pauseReplay: async () => void (await s.query('select pg_wal_replay_pause()')),
    resumeReplay: async () => void (await s.query('select pg_wal_replay_resume()')),
  };
}

/** PgBouncer in front of `target` in `dir`: transaction pooling by default, any user logs in as postgres. */
export async function startPgBouncer(
  target: { port: number },
  dir: string,
  options: { port?: number; poolMode?: 'session' | 'transaction' | 'statement'; poolSize?: number } = {},
): Promise<PgBouncer> {
  const bin = pgbouncerBin();
  const home = path.join(dir, `pgbouncer-${target.port}`);
  await ownedByPostgres(home);
  const port = options.port ?? (await freePort());
  const ini = path.join(home, 'pgbouncer.ini');
  const pidfile = path.join(home, 'pgbouncer.pid');
  await writeFile(
    ini,
    `[databases]
* = host=127.0.0.1 port=${target.port} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = any
pool_mode = ${options.poolMode ?? 'transaction'}
default_pool_size = ${options.poolSize ?? 4}
max_client_conn = 500
logfile = ${path.join(home, 'pgbouncer.log')}
pidfile = ${pidfile}
ignore_startup_parameters = extra_float_digits,options
`,
  );
  if (asRoot) await ownedByPostgres(home);
  await chmod(ini, 0o644);
  await run(bin, ['-d', ini]);
  const url = urlOf(port);
  await waitReady(url());
  let stopped = false;
  return {
    port,
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      const pid = Number((await readFile(pidfile, 'utf8').catch(() => '')).trim());
      if (!pid) return;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        return;
      }
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** A primary, `replicas` streaming replicas, and PgBouncer (transaction mode) in front of the primary when asked. */
export async function startPgCluster(
  options: { replicas?: number; pgbouncer?: boolean; poolSize?: number } = {},
): Promise<PgCluster> {
  // Check both binaries before starting anything.
  postgresBin();
  if (options.pgbouncer) pgbouncerBin();
  const dir = await mkdtemp(path.join(tmpdir(), 'shanying-pg-'));
  // The postgres user must be able to enter it.
  await chmod(dir, 0o755);
  const started: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const primary = await startPrimary(dir);
    started.push(primary);
    const replicas: PgReplica[] = [];
    for (let i = 0; i < (options.replicas ?? 1); i++) {
      const r = await startReplica(primary, dir);
      started.push(r);
      replicas.push(r);
    }
    let pgbouncer: PgBouncer | undefined;
    if (options.pgbouncer) {
      pgbouncer = await startPgBouncer(primary, dir, { poolSize: options.poolSize });
      started.push(pgbouncer);
    }
    return { primary, replicas, ...(pgbouncer ? { pgbouncer } : {}), dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The primary's WAL position that covers every transaction committed on it so far. These servers commit
 * asynchronously (synchronous_commit = off), so a commit can sit unflushed in the WAL buffers for up to three
 * wal_writer_delay (longer on a busy machine) and `pg_current_wal_flush_lsn()` alone can end before it: a replica would
 * count as caught up while it still misses the commit. A transaction that writes WAL and commits synchronously flushes
 * the WAL up to its own commit record, which comes after every earlier commit; the flush position after it covers them.
 */
async function committedLsn(primary: PgServer): Promise<string> {
  const client = new pg.Client({ connectionString: primary.url() });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('set synchronous_commit = on');
    // A transactional logical message is the smallest write there is: one WAL record, no table, nothing to undo.
    await client.query(`select pg_logical_emit_message(true, 'shanying.caught-up', '')`);
    const { rows } = await client.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn');
    return rows[0]!.lsn;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Waits until every replica has replayed every transaction the primary has committed so far. */
export async function waitCaughtUp(
  primary: PgServer,
  replicas: readonly PgServer[],
  timeoutMs = 30_000,
): Promise<void> {
  const lsn = await committedLsn(primary);
  const until = Date.now() + timeoutMs;
  for (const r of replicas) {
    for (;;) {
      const [row] = await r.query<{ ok: boolean }>(`select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as ok`);
      if (row?.ok) break;
      if (Date.now() > until) throw new Error(`replica on port ${r.port} did not catch up with ${lsn}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }
}
