/**
 * A PostgreSQL primary with one streaming replica, from Debian's server binaries (`postgresql`, 15 on Debian 12), the
 * way deploy/replica.md sets one up by hand: a replication role, `pg_basebackup -R` with a replication slot, then the
 * copy started as a hot standby. Both run as the `postgres` user under `dir`, listening on 127.0.0.1 only.
 */
import { chownSync, existsSync, mkdirSync, readdirSync, appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { envFor, runAs, runSync, Service, waitFor } from './processes.mjs';

/** The newest server binaries Debian installed (PG_BIN overrides). */
export function postgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
    : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest)
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: apt-get install postgresql');
  return path.join(root, newest, 'bin');
}

/** What the primary runs with beyond initdb's defaults (the replica copies the file, then reads the same). */
const PRIMARY_CONF = `
# Added by scripts/cluster/postgres.mjs (see deploy/replica.md).
listen_addresses = '127.0.0.1'
max_connections = 300
wal_level = replica
max_wal_senders = 5
max_replication_slots = 5
hot_standby = on
# The replica tells the primary which rows its queries still read, so a long read there is not cancelled by cleanup.
hot_standby_feedback = on
`;

const url = (user, password, port, database) =>
  `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

async function query(connectionString, sql, params = []) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Creates and starts the primary and the replica. `passwords` holds `postgres` (superuser), `replicator` and the app
 * role's (`app`); `database` is created owned by the app role.
 */
export async function startPostgres({ dir, logDir, ports, passwords, appRole = 'shanying', database = 'shanying' }) {
  const bin = postgresBin();
  const as = runAs('postgres');
  const owned = (target) => as && chownSync(target, as.uid, as.gid);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const socketDir = path.join(dir, 'sockets');
  mkdirSync(socketDir, { recursive: true });
  owned(dir);
  owned(socketDir);

  const pwFile = path.join(dir, 'superuser.pw');
  writeFileSync(pwFile, `${passwords.postgres}\n`, { mode: 0o600 });
  owned(pwFile);
  runSync(
    path.join(bin, 'initdb'),
    [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      `--pwfile=${pwFile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ],
    { as, cwd: dir },
  );
  appendFileSync(path.join(primaryDir, 'postgresql.conf'), `${PRIMARY_CONF}unix_socket_directories = '${socketDir}'\n`);

  const service = (name, dataDir, port) =>
    new Service(name, path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port)], {
      env: envFor(as),
      cwd: dir,
      logFile: path.join(logDir, `${name}.log`),
      as,
      // A fast shutdown: sessions are ended, then a checkpoint.
      stopSignal: 'SIGINT',
    });
  const primary = service('pg-primary', primaryDir, ports.primary).start();
  const superuser = (port) => url('postgres', passwords.postgres, port, 'postgres');
  await waitFor('the primary accepts connections', () => query(superuser(ports.primary), 'SELECT 1'), {
    detail: () => primary.tail(),
  });

  await query(
    superuser(ports.primary),
    `CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '${passwords.replicator}'`,
  );
  await query(superuser(ports.primary), `CREATE ROLE ${appRole} WITH LOGIN PASSWORD '${passwords.app}'`);
  await query(superuser(ports.primary), `CREATE DATABASE ${database} OWNER ${appRole}`);

  // A copy of the primary that follows it: -R writes standby.signal and primary_conninfo, -C -S a slot that keeps the
  // WAL the replica has not received yet (so a stopped replica catches up when it comes back).
  runSync(
    path.join(bin, 'pg_basebackup'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'replicator',
      '-D',
      replicaDir,
      '-X',
      'stream',
      '-R',
      '-C',
      '-S',
      'replica1',
      '--checkpoint=fast',
      '--no-sync',
    ],
    { as, cwd: dir, env: envFor(as, { PGPASSWORD: passwords.replicator }) },
  );
  const replica = service('pg-replica', replicaDir, ports.replica).start();
  await waitFor(
    'the replica is a hot standby',
    async () => (await query(superuser(ports.replica), 'SELECT pg_is_in_recovery() AS r'))[0].r,
    {
      detail: () => replica.tail(),
    },
  );

  return {
    primary,
    replica,
    appUrl: (port) => url(appRole, passwords.app, port, database),
    superuserUrl: superuser,
    /** Replay on the replica stops (it keeps receiving WAL): it falls behind by every write from now on. */
    pauseReplay: () => query(superuser(ports.replica), 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => query(superuser(ports.replica), 'SELECT pg_wal_replay_resume()'),
    /** Seconds since the last transaction the replica replayed, or null before any (pg_last_xact_replay_timestamp). */
    async replicaState() {
      const [row] = await query(
        superuser(ports.replica),
        `SELECT pg_is_wal_replay_paused() AS paused, extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float AS lag_s`,
      );
      return row;
    },
    async startReplica() {
      if (replica.running) return;
      replica.start();
      await waitFor('the replica is back', () => query(superuser(ports.replica), 'SELECT 1'), {
        detail: () => replica.tail(),
      });
    },
    async stop() {
      await replica.stop();
      await primary.stop();
    },
  };
}
