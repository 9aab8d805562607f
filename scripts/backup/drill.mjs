/**
 * `npm run test:backup`, the restore drills (one of the gates of `npm test`):
 *
 * 1. A PostgreSQL server (Debian's binaries, as `postgres` when root) archiving its WAL into a pgBackRest repository
 *    under a temp dir, with the project's schema and seed: a full backup, rows marked as kept, the time noted, later
 *    rows, the data directory destroyed, `db:restore --to <noted time>`, the server started: the kept rows and the seed
 *    are there, the later rows are not. Prints the backup's and the restore's time.
 * 2. The embedded default: `db:backup` of a running portal database and its media, later writes, both directories
 *    wiped, `db:restore --from`, started again: the row and the media file of the backup are back, the later ones not.
 *
 * Each drill is one test; the last line is `N passed, N failed`, and the exit code is non-zero when one failed.
 * `npm run test:backup -- server` (or `embedded`) runs one; BACKUP_DRILL_KEEP=1 leaves the temp dirs for a look.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  mkdirSync,
  writeFileSync,
  appendFileSync,
  readFileSync,
  readdirSync,
  existsSync,
  rmSync,
  mkdtempSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, waitFor } from '../cluster/processes.mjs';
import { archiveCommand, backup, info, ownerOf, postgresBin, run, stanzaCreate } from './pgbackrest.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'scripts/backup/cli.mjs');
const KEEP = process.env.BACKUP_DRILL_KEEP === '1';

async function query(url, sql, params = []) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Runs the CLI as an operator would (`npm run db:<command> -- …`); returns its status and output. */
function cli(command, args, env = {}) {
  const result = spawnSync(process.execPath, [CLI, command, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** The same, without blocking: the drill writes to the database while it runs. */
function cliAsync(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, command, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

async function serverDrill() {
  const version = spawnSync('pgbackrest', ['version'], { encoding: 'utf8' });
  if (version.status !== 0)
    throw new Error('pgbackrest is missing: sudo apt-get install -y pgbackrest postgresql (.ci/run installs both)');
  const tmp = mkdtempSync(path.join(tmpdir(), 'shanying-backup-drill-'));
  chmodSync(tmp, 0o755);
  const as = ownerOf(tmp);
  if (as) chownSync(tmp, as.uid, as.gid);
  const bin = postgresBin();
  const pgData = path.join(tmp, 'data');
  const port = await freePort();
  const stanza = 'drill';
  const config = path.join(tmp, 'pgbackrest.conf');
  const pgLog = path.join(tmp, 'postgres.log');
  for (const dir of ['repo', 'log', 'lock', 'sockets']) {
    mkdirSync(path.join(tmp, dir));
    if (as) chownSync(path.join(tmp, dir), as.uid, as.gid);
  }
  writeFileSync(
    config,
    [
      '[global]',
      `repo1-path=${tmp}/repo`,
      'repo1-retention-full=2',
      `log-path=${tmp}/log`,
      `lock-path=${tmp}/lock`,
      'log-level-console=warn',
      'log-level-file=off',
      'compress-type=lz4',
      '',
      `[${stanza}]`,
      `pg1-path=${pgData}`,
      `pg1-port=${port}`,
      `pg1-socket-path=${tmp}/sockets`,
      '',
    ].join('\n'),
  );
  const settings = { stanza, config, pgData };
  const pgCtl = (...args) => run(path.join(bin, 'pg_ctl'), ['-D', pgData, ...args], { as });
  const url = (db) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  try {
    run(path.join(bin, 'initdb'), ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], {
      as,
    });
    appendFileSync(
      path.join(pgData, 'postgresql.conf'),
      [
        '',
        '# The restore drill (scripts/backup/drill.mjs): WAL archived by pgBackRest, as deploy/backups.md sets up.',
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${tmp}/sockets'`,
        'wal_level = replica',
        'archive_mode = on',
        `archive_command = '${archiveCommand(settings)}'`,
        'archive_timeout = 60',
        'fsync = off',
        '',
      ].join('\n'),
    );
    pgCtl('start', '-w', '-l', pgLog);
    stanzaCreate(settings);
    await query(url('postgres'), 'CREATE DATABASE shanying');

    // The project's schema and seed, as a server at DATABASE_URL gets them at start-up.
    let t = performance.now();
    process.env.DATA_DIR = path.join(tmp, 'app');
    const { startDatabase } = await import('../../src/server/db/lifecycle.ts');
    const handle = await startDatabase({ databaseUrl: url('shanying'), directUrl: url('shanying'), log: () => {} });
    await handle.stop();
    const [{ users, videos, size }] = await query(
      url('shanying'),
      `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM videos)::int AS videos,
              pg_size_pretty(pg_database_size('shanying')) AS size`,
    );
    expect(users > 0 && videos > 0, `the seed left no users or videos (${users}, ${videos})`);
    console.log(`  schema + seed: ${users} users, ${videos} videos, ${size}, in ${seconds(t)} s`);

    t = performance.now();
    backup(settings, 'full');
    console.log(`  full backup (pgBackRest, the seed): ${seconds(t)} s`);

    // Rows the restore must bring back: some in an incremental backup on top of the full one, the rest only in the
    // archived WAL after it...
    await query(url('shanying'), 'CREATE TABLE drill_marks (label text NOT NULL)');
    await query(url('shanying'), "INSERT INTO drill_marks SELECT 'kept' FROM generate_series(1, 25)");
    t = performance.now();
    backup(settings, 'incr');
    console.log(`  incremental backup: ${seconds(t)} s`);
    // pgBackRest picks the newest backup whose stop time (whole seconds) is before the target: write once the clock
    // has passed that second.
    const stop = info(settings)[0].backup.at(-1).timestamp.stop;
    await waitFor('the clock past the backup', async () => {
      const [row] = await query(url('postgres'), 'SELECT extract(epoch FROM clock_timestamp()) > $1 + 1 AS past', [
        stop,
      ]);
      return row.past;
    });
    await query(url('shanying'), "INSERT INTO drill_marks SELECT 'kept' FROM generate_series(1, 25)");
    const [{ noted }] = await query(
      url('shanying'),
      "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS noted",
    );
    // ...and rows after the noted time, which it must not.
    await query(url('shanying'), "INSERT INTO drill_marks SELECT 'later' FROM generate_series(1, 25)");
    await query(url('shanying'), "UPDATE users SET nickname = 'later' WHERE id = (SELECT min(id) FROM users)");
    const [{ wal }] = await query(url('postgres'), 'SELECT pg_walfile_name(pg_switch_wal()) AS wal');
    await waitFor(`WAL segment ${wal} archived`, async () => {
      const [row] = await query(url('postgres'), 'SELECT last_archived_wal FROM pg_stat_archiver');
      return row.last_archived_wal && row.last_archived_wal >= wal;
    });

    // The same refusals an operator would meet: a bad time, and the server still running.
    const bad = cli('restore', [
      '--to',
      'yesterday-ish',
      `--config=${config}`,
      `--stanza=${stanza}`,
      `--pg-data=${pgData}`,
    ]);
    expect(bad.status !== 0 && /is not a time/.test(bad.out), `a bad --to was not refused: ${bad.status} ${bad.out}`);
    const busy = cli('restore', ['--to', noted, `--config=${config}`, `--stanza=${stanza}`, `--pg-data=${pgData}`]);
    expect(
      busy.status !== 0 && /is running/.test(busy.out),
      `a restore under a running server was not refused: ${busy.out}`,
    );

    // The disaster: the server dies and its data directory is gone.
    pgCtl('stop', '-m', 'immediate');
    rmSync(pgData, { recursive: true, force: true });

    t = performance.now();
    const restored = cli('restore', [
      '--to',
      noted,
      '--start',
      `--config=${config}`,
      `--stanza=${stanza}`,
      `--pg-data=${pgData}`,
    ]);
    expect(restored.status === 0, `db:restore --to ${noted} --start failed:\n${restored.out}`);
    const restoreSeconds = /in ([\d.]+) s/.exec(restored.out)?.[1];
    await waitFor('the restored server promoted', async () => {
      const [row] = await query(url('postgres'), 'SELECT pg_is_in_recovery() AS recovering');
      return !row.recovering;
    });
    console.log(`  restore to ${noted}: pgBackRest ${restoreSeconds} s, until the server took writes ${seconds(t)} s`);

    const marks = await query(
      url('shanying'),
      'SELECT label, count(*)::int AS n FROM drill_marks GROUP BY label ORDER BY label',
    );
    expect(
      JSON.stringify(marks) === JSON.stringify([{ label: 'kept', n: 50 }]),
      `marks after the restore: ${JSON.stringify(marks)}`,
    );
    const [{ n, renamed }] = await query(
      url('shanying'),
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE nickname = 'later')::int AS renamed FROM users",
    );
    expect(n === users && renamed === 0, `users after the restore: ${n} (${renamed} renamed after the noted time)`);
    await query(url('shanying'), "INSERT INTO drill_marks VALUES ('written after the restore')");
  } catch (error) {
    for (const log of [
      pgLog,
      ...readdirSync(tmp)
        .filter((name) => name.startsWith('restore-'))
        .map((name) => path.join(tmp, name)),
    ])
      if (existsSync(log))
        error.message += `\n--- ${path.basename(log)} (tail)\n${readFileSync(log, 'utf8').slice(-3000)}`;
    throw error;
  } finally {
    if (existsSync(path.join(pgData, 'postmaster.pid'))) {
      try {
        pgCtl('stop', '-m', 'fast');
      } catch {}
    }
    if (!KEEP) rmSync(tmp, { recursive: true, force: true });
  }
}

async function embeddedDrill() {
  const tmp = mkdtempSync(path.join(tmpdir(), 'shanying-embedded-drill-'));
  chmodSync(tmp, 0o755);
  const dataDir = path.join(tmp, 'data');
  const backupsDir = path.join(tmp, 'backups');
  const { startDatabase } = await import('../../src/server/db/lifecycle.ts');
  const start = () => startDatabase({ dataDir, databaseUrl: '', seed: false, log: () => {} });
  let handle;
  try {
    handle = await start();
    await query(handle.url, 'CREATE TABLE drill_marks (label text NOT NULL)');
    await query(handle.url, "INSERT INTO drill_marks VALUES ('kept')");
    mkdirSync(path.join(dataDir, 'media', 'clips'), { recursive: true });
    writeFileSync(path.join(dataDir, 'media', 'clips', 'kept.mp4'), 'the kept clip');

    // Writes go on during the backup, each one transaction into two tables: whatever part of them the backup holds, a
    // consistent copy holds as many rows in one as in the other.
    await query(handle.url, 'CREATE TABLE drill_pair_a (n int NOT NULL); CREATE TABLE drill_pair_b (n int NOT NULL)');
    const writer = new pg.Client({ connectionString: handle.url });
    await writer.connect();
    let backingUp = true;
    let commits = 0;
    const writing = (async () => {
      while (backingUp) {
        await writer.query(
          'BEGIN; INSERT INTO drill_pair_a SELECT generate_series(1, 200); INSERT INTO drill_pair_b SELECT generate_series(1, 200); COMMIT',
        );
        commits += 1;
        // Checkpoints during the copy, as a busy server has: only the backup's label, not the copied pg_control,
        // says where replay must start.
        if (commits % 25 === 0) await writer.query('CHECKPOINT');
      }
    })();
    let t = performance.now();
    const made = await cliAsync('backup', [`--backups-dir=${backupsDir}`], { DATA_DIR: dataDir, DATABASE_URL: '' });
    backingUp = false;
    await writing;
    await writer.end();
    expect(made.status === 0, `db:backup failed:\n${made.out}`);
    const dir = /^backup (\S+):/m.exec(made.out)?.[1];
    expect(dir && existsSync(path.join(dir, 'manifest.json')), `db:backup named no backup:\n${made.out}`);
    console.log(`  ${made.out.trim()} (${seconds(t)} s with node's start)`);

    await query(handle.url, "INSERT INTO drill_marks VALUES ('later')");
    writeFileSync(path.join(dataDir, 'media', 'clips', 'later.mp4'), 'a later clip');
    const busy = cli('restore', ['--from', dir, `--data-dir=${dataDir}`], { DATABASE_URL: '' });
    expect(
      busy.status !== 0 && /running/.test(busy.out),
      `a restore under the running portal was not refused: ${busy.out}`,
    );
    const notBackup = cli('restore', ['--from', tmp, `--data-dir=${dataDir}`], { DATABASE_URL: '' });
    expect(
      notBackup.status !== 0 && /not a backup/.test(notBackup.out),
      `a directory without a manifest was taken: ${notBackup.out}`,
    );

    await handle.stop();
    handle = undefined;
    rmSync(path.join(dataDir, 'pg'), { recursive: true, force: true });
    rmSync(path.join(dataDir, 'media'), { recursive: true, force: true });

    t = performance.now();
    const restored = cli('restore', ['--from', dir, `--data-dir=${dataDir}`], { DATABASE_URL: '' });
    expect(restored.status === 0, `db:restore --from failed:\n${restored.out}`);
    handle = await start();
    console.log(`  restore --from and start: ${seconds(t)} s`);
    const [pairs] = await query(
      handle.url,
      'SELECT (SELECT count(*) FROM drill_pair_a)::int AS a, (SELECT count(*) FROM drill_pair_b)::int AS b',
    );
    expect(
      pairs.a === pairs.b && pairs.a % 200 === 0,
      `the copy is not consistent: ${pairs.a} rows in one table, ${pairs.b} in its pair, 200 a transaction`,
    );
    console.log(`  ${commits} transactions during the backup, ${pairs.a / 200} of them in the restored copy`);
    const marks = await query(handle.url, 'SELECT label FROM drill_marks ORDER BY label');
    expect(
      JSON.stringify(marks) === JSON.stringify([{ label: 'kept' }]),
      `marks after the restore: ${JSON.stringify(marks)}`,
    );
    expect(
      readFileSync(path.join(dataDir, 'media', 'clips', 'kept.mp4'), 'utf8') === 'the kept clip',
      'the media file did not come back',
    );
    expect(
      !existsSync(path.join(dataDir, 'media', 'clips', 'later.mp4')),
      'a media file written after the backup is there',
    );
    // A second backup with --keep 1 leaves only itself.
    const again = cli('backup', [`--backups-dir=${backupsDir}`, '--keep', '1'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    expect(
      again.status === 0 && again.out.includes(`deleted ${dir}`),
      `db:backup --keep 1 kept the older backup:\n${again.out}`,
    );
    expect(readdirSync(backupsDir).length === 1, `backups left: ${readdirSync(backupsDir).join(', ')}`);
    // A damaged backup is refused before anything is touched.
    const [kept] = readdirSync(backupsDir);
    writeFileSync(path.join(backupsDir, kept, 'media', 'clips', 'kept.mp4'), 'cut');
    const damaged = cli('restore', ['--from', path.join(backupsDir, kept), `--data-dir=${dataDir}`], {
      DATABASE_URL: '',
    });
    expect(damaged.status !== 0 && /damaged/.test(damaged.out), `a damaged backup was not refused: ${damaged.out}`);
  } finally {
    await handle?.stop();
    if (!KEEP) rmSync(tmp, { recursive: true, force: true });
  }
}

const only = process.argv[2];
let passed = 0;
let failed = 0;
for (const [name, drill] of [
  ['server: pgBackRest point-in-time restore', serverDrill],
  ['embedded: db:backup, wipe, db:restore --from', embeddedDrill],
]) {
  if (only && !name.startsWith(only)) continue;
  const t = performance.now();
  console.log(`▶ ${name}`);
  try {
    await drill();
    passed += 1;
    console.log(`✓ ${name} (${seconds(t)} s)`);
  } catch (error) {
    failed += 1;
    console.log(`✗ ${name} (${seconds(t)} s)\n${error instanceof Error ? error.stack : error}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
