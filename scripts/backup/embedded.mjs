/**
 * Backups of the embedded default (no DATABASE_URL): the PostgreSQL cluster under DATA_DIR/pg and the media under
 * DATA_DIR/media, copied into one directory `backups/<UTC time>/` with a manifest.json.
 *
 * The embedded server is PostgreSQL 18 and ships no pg_dump (Debian's older pg_dump refuses a newer server), so the
 * database is copied physically. While the portal runs, the copy is an online base backup through PostgreSQL's own
 * backup functions: pg_backup_start, the files, pg_backup_stop's backup_label, and the WAL written meanwhile (a
 * temporary replication slot keeps it from being recycled), which makes the copy consistent when it is started. With
 * the portal stopped, the stopped cluster's files are copied as they are. The media is copied after the database, so
 * every file a restored row names is there (a file deleted in between is the exception).
 */
import { chmod, chown, copyFile, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { ownerOf } from './pgbackrest.mjs';

// The embedded server's superuser (src/server/db/embedded.ts): local only, listening on 127.0.0.1.
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'shanying';
const FORMAT = 1;

/** What PostgreSQL's documentation says a base backup leaves out (rebuilt at start), beside pg_wal handled apart. */
const SKIP_CONTENTS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label.old', 'tablespace_map.old']);

/** The pid and port of the postmaster serving `pgDir`, when one is alive. */
export async function runningPostmaster(pgDir) {
  let lines;
  try {
    lines = (await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0)) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') return undefined;
  } catch {
    return undefined;
  }
  return { pid, port };
}

/**
 * Copies the tree `from` into `to`, file by file; files that vanish meanwhile (a table dropped during an online
 * backup) are skipped. `skip(relative, isDir)` returns 'all', 'contents' (make the directory empty) or false.
 * Returns the files copied as [relative path, bytes].
 */
async function copyTree(from, to, skip = () => false, base = '') {
  const copied = [];
  await mkdir(to, { recursive: true });
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return copied;
    throw error;
  }
  for (const entry of entries) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    const rule = skip(rel, entry.isDirectory());
    if (rule === 'all') continue;
    if (entry.isDirectory()) {
      if (rule === 'contents') await mkdir(dst, { recursive: true });
      else copied.push(...(await copyTree(src, dst, skip, rel)));
      continue;
    }
    if (!entry.isFile()) continue;
    try {
      await copyFile(src, dst);
      const { size, mode } = await stat(dst);
      await chmod(dst, mode & 0o777);
      copied.push([rel, size]);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return copied;
}

const bytes = (files) => files.reduce((sum, [, size]) => sum + size, 0);

/** `2026-11-30T04-15-02.317Z`: a name that sorts by time and is valid on every filesystem. */
export function stampName(date = new Date()) {
  return date.toISOString().replaceAll(':', '-');
}

/**
 * Backs up DATA_DIR's database and media into `<backupsDir>/<UTC time>/` (written as `.partial` and renamed once
 * complete). Returns the directory and its manifest.
 */
export async function backupEmbedded({ dataDir, backupsDir, now = new Date() }) {
  const started = performance.now();
  const pgDir = path.resolve(dataDir, 'pg');
  const mediaDir = path.resolve(dataDir, 'media');
  if (!(await stat(path.join(pgDir, 'PG_VERSION')).catch(() => undefined)))
    throw new Error(`no embedded database under ${pgDir} (DATA_DIR=${dataDir}): nothing to back up`);
  const name = stampName(now);
  const out = path.resolve(backupsDir, name);
  const partial = `${out}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const pgOut = path.join(partial, 'pg');

  const postmaster = await runningPostmaster(pgDir);
  let pgFiles;
  let online;
  if (postmaster) {
    online = await onlineCopy(pgDir, pgOut, postmaster.port);
    pgFiles = online.files;
  } else {
    // A stopped cluster: its files as they are (pg_wal included) are consistent.
    pgFiles = await copyTree(pgDir, pgOut, (rel) => (SKIP_FILES.has(rel) ? 'all' : false));
  }
  await chmod(pgOut, 0o700);
  const mediaFiles = await copyTree(mediaDir, path.join(partial, 'media'));

  const manifest = {
    format: FORMAT,
    kind: 'embedded',
    createdAt: now.toISOString(),
    method: postmaster ? 'online' : 'offline',
    postgresVersion: (await readFile(path.join(pgDir, 'PG_VERSION'), 'utf8')).trim(),
    ...(online ? { startLsn: online.startLsn, stopLsn: online.stopLsn } : {}),
    seconds: Math.round(performance.now() - started) / 1000,
    pg: { files: pgFiles.length, bytes: bytes(pgFiles), list: pgFiles },
    media: { files: mediaFiles.length, bytes: bytes(mediaFiles), list: mediaFiles },
  };
  await writeFile(path.join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(partial, out);
  return { dir: out, manifest };
}

/** An online base backup of the running embedded server on `port` into `pgOut`. */
async function onlineCopy(pgDir, pgOut, port) {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    database: 'postgres',
  });
  client.on('error', () => {});
  await client.connect();
  try {
    // Temporary: it goes with this session, and keeps every WAL segment from the backup's start until then.
    await client.query(
      `SELECT pg_create_physical_replication_slot('shanying_backup_' || pg_backend_pid(), true, true)`,
    );
    const {
      rows: [start],
    } = await client.query(
      `SELECT pg_backup_start('shanying db:backup', true) AS lsn, pg_walfile_name(pg_current_wal_lsn()) AS wal`,
    );
    const files = await copyTree(pgDir, pgOut, (rel, isDir) => {
      if (SKIP_FILES.has(rel) || rel === 'backup_label' || rel === 'tablespace_map') return 'all';
      return isDir && SKIP_CONTENTS.has(rel) ? 'contents' : false;
    });
    const {
      rows: [stop],
    } = await client.query(
      'SELECT labelfile, spcmapfile, lsn::text AS lsn, pg_walfile_name(lsn) AS wal FROM pg_backup_stop(false)',
    );
    await writeFile(path.join(pgOut, 'backup_label'), stop.labelfile);
    if (stop.spcmapfile) await writeFile(path.join(pgOut, 'tablespace_map'), stop.spcmapfile);
    // The WAL from the backup's start to its end (same timeline: names sort in order), and the timeline histories.
    const startWal = /\(file ([0-9A-F]{24})\)/.exec(stop.labelfile)?.[1] ?? start.wal;
    const walFiles = await copyTree(path.join(pgDir, 'pg_wal'), path.join(pgOut, 'pg_wal'), (rel, isDir) => {
      if (isDir) return 'all';
      if (rel.endsWith('.history')) return false;
      return /^[0-9A-F]{24}$/.test(rel) && rel >= startWal && rel <= stop.wal ? false : 'all';
    });
    files.push(...walFiles.map(([rel, size]) => [`pg_wal/${rel}`, size]));
    return { files, startLsn: String(start.lsn), stopLsn: stop.lsn };
  } finally {
    await client.end();
  }
}

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/;

/** Deletes all but the `keep` newest complete backups in `backupsDir`; returns the directories deleted. */
export async function pruneBackups(backupsDir, keep) {
  const names = (await readdir(backupsDir).catch(() => [])).filter((name) => STAMP.test(name)).sort();
  const complete = [];
  for (const name of names) {
    if (await stat(path.join(backupsDir, name, 'manifest.json')).catch(() => undefined)) complete.push(name);
  }
  const doomed = complete.slice(0, Math.max(0, complete.length - keep)).map((name) => path.join(backupsDir, name));
  for (const dir of doomed) await rm(dir, { recursive: true, force: true });
  return doomed;
}

/** Reads and checks a backup's manifest; throws a message naming what is wrong. */
export async function readBackup(from) {
  const dir = path.resolve(from);
  let manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  } catch (error) {
    throw new Error(
      `${dir} is not a backup made by npm run db:backup (${error.code === 'ENOENT' ? 'no manifest.json' : error.message})`,
    );
  }
  if (manifest.kind !== 'embedded' || manifest.format !== FORMAT)
    throw new Error(`${dir}: manifest.json is not an embedded backup of format ${FORMAT}`);
  for (const [part, list] of [
    ['pg', manifest.pg.list],
    ['media', manifest.media.list],
  ]) {
    for (const [rel, size] of list) {
      const found = await stat(path.join(dir, part, rel)).catch(() => undefined);
      if (!found || found.size !== size)
        throw new Error(
          `${dir} is damaged: ${part}/${rel} is ${found ? `${found.size} bytes, not ${size}` : 'missing'}`,
        );
    }
  }
  return { dir, manifest };
}

/** Gives `target` and everything under it to `owner` (root restoring for the unprivileged postgres user). */
async function chownTree(target, owner) {
  await chown(target, owner.uid, owner.gid);
  const info = await lstat(target);
  if (!info.isDirectory()) return;
  for (const entry of await readdir(target)) await chownTree(path.join(target, entry), owner);
}

/**
 * Restores a backup into DATA_DIR: refuses while a server runs on DATA_DIR/pg; moves the current pg/ and media/
 * aside (`<name>.before-restore-<time>`, returned so the caller can say where) and copies the backup's in. The
 * database comes up consistent at its next start (`npm start`), replaying the WAL the backup holds.
 */
export async function restoreEmbedded({ from, dataDir, now = new Date() }) {
  const started = performance.now();
  const { dir, manifest } = await readBackup(from);
  const pgDir = path.resolve(dataDir, 'pg');
  const mediaDir = path.resolve(dataDir, 'media');
  const running = await runningPostmaster(pgDir);
  if (running)
    throw new Error(
      `the portal's database is running on ${pgDir} (postgres ${running.pid}): stop the portal (Ctrl-C, or ` +
        `systemctl stop 'shanying-web@*' shanying-worker) and run the restore again`,
    );
  const owner = ownerOf(pgDir);
  const aside = [];
  const suffix = `.before-restore-${stampName(now)}`;
  for (const target of [pgDir, mediaDir]) {
    if (await stat(target).catch(() => undefined)) {
      await rename(target, `${target}${suffix}`);
      aside.push(`${target}${suffix}`);
    }
  }
  await mkdir(dataDir, { recursive: true });
  await copyTree(path.join(dir, 'pg'), pgDir);
  await chmod(pgDir, 0o700);
  if (owner) await chownTree(pgDir, owner);
  await copyTree(path.join(dir, 'media'), mediaDir);
  return { manifest, aside, seconds: (performance.now() - started) / 1000 };
}
