/**
 * Backups of a PostgreSQL server (DATABASE_URL) with pgBackRest: WAL archived continuously into a repository, full and
 * incremental backups, and a restore of the data directory to a point in time. `npm run db:backup` / `db:restore` and
 * the restore drill (scripts/backup/drill.mjs) call these; deploy/backups.md says how they are scheduled.
 *
 * pgBackRest runs as the owner of the data directory: as `postgres` when this process is root, else as ourselves.
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, chownSync, statSync } from 'node:fs';
import path from 'node:path';
import { postgresBin } from '../cluster/postgres.mjs';

export { postgresBin };

/** The settings every pgBackRest command here needs; each has an environment variable and a flag. */
export const SERVER_SETTINGS = {
  stanza: { env: 'PGBACKREST_STANZA', flag: '--stanza', fallback: 'shanying' },
  pgData: { env: 'PGDATA', flag: '--pg-data', fallback: undefined },
  config: { env: 'PGBACKREST_CONFIG', flag: '--config', fallback: '/etc/pgbackrest/pgbackrest.conf' },
};

/**
 * uid and gid of the data directory's owner (of its nearest existing parent; `postgres` when that is root's) when we
 * are root, since PostgreSQL and pgBackRest refuse to run as root; undefined otherwise (we run them as ourselves).
 */
export function ownerOf(dir) {
  if (process.getuid?.() !== 0) return undefined;
  if (dir) {
    let probe = path.resolve(dir);
    while (!existsSync(probe)) probe = path.dirname(probe);
    const { uid, gid } = statSync(probe);
    if (uid !== 0) return { uid, gid };
  }
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Runs a program to completion (as `as`), returning its output; throws with that output when it fails. */
export function run(command, args, { as, env } = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: as ? '/tmp' : process.env.HOME, ...env },
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed (${result.error?.message ?? result.signal ?? `exit ${result.status}`}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return result.stdout;
}

/** The archive_command that pushes each finished WAL segment into the stanza's repository. */
export function archiveCommand({ stanza, config }) {
  return `pgbackrest --config=${config} --stanza=${stanza} archive-push %p`;
}

const common = ({ stanza, config }) => [`--config=${config}`, `--stanza=${stanza}`];

/** Creates the stanza in the repository (once per server; run again it only checks). */
export function stanzaCreate(settings) {
  return run('pgbackrest', [...common(settings), 'stanza-create'], { as: ownerOf(settings.pgData) });
}

/** A full, differential or incremental backup of the running server; returns pgBackRest's output. */
export function backup(settings, type = 'incr') {
  if (!['full', 'diff', 'incr'].includes(type))
    throw new Error(`backup type must be full, diff or incr, not "${type}"`);
  return run('pgbackrest', [...common(settings), `--type=${type}`, '--start-fast', 'backup'], {
    as: ownerOf(settings.pgData),
  });
}

/** pgBackRest's `info` as JSON (the backups held and the WAL archived). */
export function info(settings) {
  return JSON.parse(
    run('pgbackrest', [...common(settings), '--output=json', 'info'], { as: ownerOf(settings.pgData) }),
  );
}

/** Whether a postmaster serves `pgData` (pg_ctl status exits 0 then, 3 when none does). */
export function serverRunning(pgData) {
  if (!existsSync(path.join(pgData, 'postmaster.pid'))) return false;
  const result = spawnSync(path.join(postgresBin(), 'pg_ctl'), ['status', '-D', pgData], { encoding: 'utf8' });
  return result.status === 0;
}

/**
 * Parses the `--to` of a point-in-time restore into the form recovery_target_time reads (UTC, microseconds kept).
 * Throws a message for the operator when it is not a time.
 */
export function parseTarget(to) {
  if (typeof to !== 'string' || to.trim() === '')
    throw new Error('--to needs a time, e.g. --to "2026-11-30 04:15:00+00" (a time zone is best given)');
  const text = to.trim();
  // Keep the digits PostgreSQL gave (microseconds) when the time came from now()/clock_timestamp().
  const pgLike = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?([+-]\d{2}(:?\d{2})?|Z)?$/;
  const ms = Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
  if (!pgLike.test(text) || Number.isNaN(ms))
    throw new Error(`--to "${to}" is not a time: give e.g. "2026-11-30 04:15:00+00" or "2026-11-30T04:15:00Z"`);
  if (ms > Date.now() + 60_000) throw new Error(`--to "${to}" is in the future: nothing has been archived for it yet`);
  return text.replace('T', ' ').replace(/Z$/, '+00');
}

/**
 * Restores `pgData` to the time `to` from the stanza's repository: pgBackRest picks the newest backup before it and
 * writes the recovery settings (replay archived WAL up to `to`, then promote). The server must be stopped; a data
 * directory that is gone is made again (empty, the owner's, mode 0700). Returns the seconds pgBackRest took.
 */
export function restoreToTime(settings, to) {
  const target = parseTarget(to);
  const { pgData } = settings;
  if (!pgData) throw new Error('the data directory is needed: PGDATA or --pg-data');
  if (serverRunning(pgData))
    throw new Error(
      `PostgreSQL is running on ${pgData}: stop it first (systemctl stop postgresql, pg_ctlcluster <version> <name> stop, ` +
        `or pg_ctl -D ${pgData} stop -m fast), then run the restore again`,
    );
  if (!existsSync(settings.config))
    throw new Error(
      `no pgBackRest configuration at ${settings.config}: --config or PGBACKREST_CONFIG (see deploy/pgbackrest.conf)`,
    );
  const as = ownerOf(pgData);
  if (!existsSync(pgData)) {
    mkdirSync(pgData, { recursive: true, mode: 0o700 });
    if (as) chownSync(pgData, as.uid, as.gid);
  }
  const started = performance.now();
  run(
    'pgbackrest',
    [
      ...common(settings),
      `--pg1-path=${pgData}`,
      '--delta',
      '--type=time',
      `--target=${target}`,
      '--target-action=promote',
      'restore',
    ],
    { as },
  );
  return (performance.now() - started) / 1000;
}
