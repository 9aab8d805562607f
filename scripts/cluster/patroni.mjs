/**
 * PostgreSQL with automatic failover, from Debian's packages, the way deploy/failover.md runs it on three machines:
 * three etcd members (the lock and the shared configuration), and three Patroni members, each running one PostgreSQL
 * server: one primary and two replicas, one of them synchronous. Patroni and PostgreSQL run as the `postgres` user;
 * every member's data is under `dir`, every port on 127.0.0.1.
 *
 * Each Patroni member reads deploy/patroni.yml with only its name, addresses, ports, paths and passwords changed, so
 * the timings that run here (ttl, loop_wait, primary_start_timeout, synchronous_mode) are the shipped ones. The
 * leader archives its WAL with pgBackRest into one repository under `dir` (each member with a configuration of its
 * own naming its data directory), so the archive goes on from whichever member leads.
 */
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import YAML from 'yaml';
import { archiveCommand, stanzaCreate } from '../backup/pgbackrest.mjs';
import { postgresBin } from './postgres.mjs';
import { envFor, runAs, Service, waitFor } from './processes.mjs';

/** The pgBackRest stanza every member archives into (deploy/pgbackrest.conf's). */
const STANZA = 'shanying';

const url = (user, password, port, database) =>
  `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

async function query(connectionString, sql, params = []) {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** GET `path` of a member's REST API: its status and JSON body (null when the API does not answer). */
export async function patroniApi(port, apiPath) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${apiPath}`, { signal: AbortSignal.timeout(2_000) });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return { status: 0, body: null };
  }
}

/** The three-member etcd on 127.0.0.1 (`ports`: [{client, peer}] × 3). */
function etcdMembers({ dir, logDir, ports }) {
  const names = ports.map((_, i) => `etcd${i + 1}`);
  const initialCluster = ports.map((p, i) => `${names[i]}=http://127.0.0.1:${p.peer}`).join(',');
  return ports.map(
    (p, i) =>
      new Service(
        names[i],
        'etcd',
        [
          `--name=${names[i]}`,
          `--data-dir=${path.join(dir, names[i])}`,
          `--listen-client-urls=http://127.0.0.1:${p.client}`,
          `--advertise-client-urls=http://127.0.0.1:${p.client}`,
          `--listen-peer-urls=http://127.0.0.1:${p.peer}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${p.peer}`,
          `--initial-cluster=${initialCluster}`,
          '--initial-cluster-token=shanying',
          '--initial-cluster-state=new',
          // A busy 2-core machine can starve a member for a moment: a longer election timeout than the default 1 s
          // keeps that from looking like a lost leader.
          '--heartbeat-interval=200',
          '--election-timeout=2000',
          '--logger=zap',
          '--log-level=warn',
        ],
        { env: { PATH: process.env.PATH }, cwd: dir, logFile: path.join(logDir, `${names[i]}.log`) },
      ),
  );
}

/**
 * Starts etcd and the three Patroni members and waits for a primary with two streaming replicas. `ports.etcd` holds
 * three {client, peer}, `ports.pg` and `ports.api` three ports each; `passwords` holds `postgres` (superuser),
 * `replicator` and `app` (the app role's, which owns `database`).
 */
export async function startPatroni({
  root,
  dir,
  logDir,
  ports,
  passwords,
  appRole = 'shanying',
  database = 'shanying',
  log = () => {},
}) {
  const as = runAs('postgres');
  const owned = (target) => as && chownSync(target, as.uid, as.gid);
  mkdirSync(dir, { recursive: true });
  owned(dir);
  const socketDir = path.join(dir, 'sockets');
  mkdirSync(socketDir, { recursive: true });
  owned(socketDir);

  const etcdDir = path.join(dir, 'etcd');
  mkdirSync(etcdDir, { recursive: true });
  const etcd = etcdMembers({ dir: etcdDir, logDir, ports: ports.etcd });
  for (const member of etcd) member.start();
  await waitFor(
    'etcd has a leader',
    async () => {
      const res = await fetch(`http://127.0.0.1:${ports.etcd[0].client}/health`);
      return res.ok && (await res.json()).health === 'true';
    },
    { timeoutMs: 30_000, detail: () => etcd.map((e) => e.tail(1_000)).join('\n') },
  );

  const shipped = YAML.parse(readFileSync(path.join(root, 'deploy', 'patroni.yml'), 'utf8'));
  const bin = postgresBin();
  const backupDir = path.join(dir, 'pgbackrest');
  for (const sub of ['', 'repo', 'lock', 'log']) {
    mkdirSync(path.join(backupDir, sub), { recursive: true });
    owned(path.join(backupDir, sub));
  }
  const members = ports.pg.map((pgPort, i) => {
    const name = `pg${i + 1}`;
    const apiPort = ports.api[i];
    const dataDir = path.join(dir, name);
    const config = structuredClone(shipped);
    config.name = name;
    // deploy/pgbackrest.conf's settings, with this member's paths and ports.
    const backupConfig = path.join(backupDir, `${name}.conf`);
    writeFileSync(
      backupConfig,
      [
        '[global]',
        `repo1-path=${path.join(backupDir, 'repo')}`,
        `lock-path=${path.join(backupDir, 'lock', name)}`,
        `log-path=${path.join(backupDir, 'log')}`,
        'start-fast=y',
        'compress-type=lz4',
        `[${STANZA}]`,
        `pg1-path=${dataDir}`,
        `pg1-port=${pgPort}`,
        `pg1-socket-path=${socketDir}`,
        '',
      ].join('\n'),
    );
    owned(backupConfig);
    // On 127.0.0.1 only, and without the REST API's password: the cluster's tests change it (maintenance mode).
    config.restapi = { listen: `127.0.0.1:${apiPort}`, connect_address: `127.0.0.1:${apiPort}` };
    config.etcd3 = { hosts: ports.etcd.map((p) => `127.0.0.1:${p.client}`) };
    Object.assign(config.postgresql, {
      listen: `127.0.0.1:${pgPort}`,
      connect_address: `127.0.0.1:${pgPort}`,
      data_dir: dataDir,
      bin_dir: bin,
      pgpass: path.join(dir, `${name}.pgpass`),
      authentication: {
        superuser: { username: 'postgres', password: passwords.postgres },
        replication: { username: 'replicator', password: passwords.replicator },
        rewind: { username: 'postgres', password: passwords.postgres },
      },
      pg_hba: [
        'local all all trust',
        'host replication replicator 127.0.0.1/32 scram-sha-256',
        'host all all 127.0.0.1/32 scram-sha-256',
      ],
      parameters: {
        ...config.postgresql.parameters,
        unix_socket_directories: socketDir,
        archive_command: archiveCommand({ stanza: STANZA, config: backupConfig }),
      },
    });
    const configFile = path.join(dir, `${name}.yml`);
    // JSON is YAML: Patroni reads it as such.
    writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    owned(configFile);
    const service = new Service(name, 'patroni', [configFile], {
      env: envFor(as),
      cwd: dir,
      logFile: path.join(logDir, `${name}.log`),
      as,
      // Patroni stops its PostgreSQL (fast), gives up the leader lock if it holds it, then exits.
      stopSignal: 'SIGTERM',
      graceMs: 30_000,
    });
    return { name, pgPort, apiPort, dataDir, backupConfig, service };
  });
  const byName = (name) => {
    const member = members.find((m) => m.name === name);
    if (!member) throw new Error(`no member ${name}`);
    return member;
  };
  const tails = () => members.map((m) => `--- ${m.name}\n${m.service.tail(1_500)}`).join('\n');

  /** Patroni's view of the cluster (GET /cluster from the first member that answers). */
  async function clusterState() {
    for (const member of members) {
      if (!member.service.running) continue;
      const { status, body } = await patroniApi(member.apiPort, '/cluster');
      if (status === 200 && body?.members) return body.members;
    }
    return [];
  }
  const leaderName = async () => (await clusterState()).find((m) => m.role === 'leader')?.name;
  /** Members that Patroni reports as running replicas that stream from the leader. */
  async function streamingReplicas() {
    const states = await clusterState();
    return states
      .filter((m) => (m.role === 'replica' || m.role === 'sync_standby') && ['running', 'streaming'].includes(m.state))
      .map((m) => m.name);
  }

  // The first member bootstraps (initdb); the others then copy it, so no two race to initialise.
  log(`Patroni member pg1 (PostgreSQL ${members[0].pgPort}, REST ${members[0].apiPort}) bootstraps`);
  members[0].service.start();
  const superuser = (port) => url('postgres', passwords.postgres, port, 'postgres');
  await waitFor('pg1 is the primary', async () => (await patroniApi(members[0].apiPort, '/primary')).status === 200, {
    timeoutMs: 60_000,
    detail: tails,
  });
  // The stanza, once, from the first primary: until it exists, archive-push fails and PostgreSQL keeps the segments.
  stanzaCreate({ stanza: STANZA, config: members[0].backupConfig, pgData: members[0].dataDir });
  await query(superuser(members[0].pgPort), `CREATE ROLE ${appRole} WITH LOGIN PASSWORD '${passwords.app}'`);
  await query(superuser(members[0].pgPort), `CREATE DATABASE ${database} OWNER ${appRole}`);
  log('Patroni members pg2, pg3 copy the primary');
  for (const member of members.slice(1)) member.service.start();
  const bothStreaming = async () => {
    const replicas = await streamingReplicas();
    const states = await clusterState();
    return replicas.length === 2 && states.some((m) => m.role === 'sync_standby');
  };
  await waitFor('two replicas stream from the primary, one synchronous', bothStreaming, {
    timeoutMs: 90_000,
    detail: tails,
  });

  /** Turns Patroni's maintenance mode on or off (PATCH /config {pause}) and waits until every running member says so. */
  async function setMaintenance(pause) {
    const member = members.find((m) => m.service.running);
    const res = await fetch(`http://127.0.0.1:${member.apiPort}/config`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pause }),
    });
    if (!res.ok) throw new Error(`PATCH /config {pause: ${pause}}: ${res.status} ${await res.text()}`);
    await waitFor(
      `maintenance mode ${pause ? 'on' : 'off'}`,
      async () => {
        for (const m of members.filter((x) => x.service.running)) {
          const { body } = await patroniApi(m.apiPort, '/patroni');
          if (Boolean(body?.pause) !== pause) return false;
        }
        return true;
      },
      { timeoutMs: 15_000, detail: tails },
    );
  }

  const services = [...etcd, ...members.map((m) => m.service)];
  const replicaMembers = async () => {
    const states = await clusterState();
    return members.filter((m) => states.some((s) => s.name === m.name && s.role !== 'leader'));
  };

  return {
    etcd,
    members,
    services,
    appUrl: (port) => url(appRole, passwords.app, port, database),
    superuserUrl: superuser,
    clusterState,
    leaderName,
    streamingReplicas,
    /**
     * Replay stops on every replica (they keep receiving WAL): they fall behind by every write from now on. Patroni
     * resumes a paused replay on its next loop (PostgreSQL 14+ pauses by itself when a setting differs), so the cluster
     * is put in maintenance mode first (`patronictl pause`: no failover either) until resumeReplay.
     */
    async pauseReplay() {
      await setMaintenance(true);
      const replicas = await replicaMembers();
      for (const m of replicas) await query(superuser(m.pgPort), 'SELECT pg_wal_replay_pause()');
      await waitFor(
        'replay paused on every replica',
        async () => {
          for (const m of replicas) {
            const [row] = await query(superuser(m.pgPort), 'SELECT pg_get_wal_replay_pause_state() AS state');
            if (row.state !== 'paused') return false;
          }
          return true;
        },
        { timeoutMs: 10_000, detail: tails },
      );
    },
    async resumeReplay() {
      for (const m of members) {
        await query(superuser(m.pgPort), 'SELECT pg_wal_replay_resume()').catch(() => {});
      }
      await setMaintenance(false);
    },
    /** Stops the Patroni member of every replica (with its PostgreSQL): reads then have no replica to go to. */
    async stopReplicas() {
      const replicas = await replicaMembers();
      await Promise.all(replicas.map((m) => m.service.stop()));
    },
    /** Starts every stopped member again and waits until the cluster has its two streaming replicas back. */
    async startStopped() {
      for (const m of members) if (!m.service.running) m.service.start();
      await waitFor('two replicas stream again', bothStreaming, { timeoutMs: 90_000, detail: tails });
    },
    /** Starts one member's Patroni again (after it was stopped or killed). */
    startMember(name) {
      const member = byName(name);
      if (!member.service.running) member.service.start();
    },
    /** The PID of a member's postmaster (first line of postmaster.pid), or undefined when it has none. */
    postmasterPid(name) {
      try {
        return Number(readFileSync(path.join(byName(name).dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return undefined;
      }
    },
    /** `kill -9` of the leader's postmaster, as a crash would; answers the leader's name. */
    async killPrimaryPostmaster() {
      const name = await leaderName();
      if (!name) throw new Error('no leader');
      const pid = this.postmasterPid(name);
      if (!pid) throw new Error(`${name} has no postmaster.pid`);
      process.kill(pid, 'SIGKILL');
      return name;
    },
    /** The leader's machine lost: `kill -9` of its Patroni and of its postmaster. Answers the leader's name. */
    async killPrimaryMember() {
      const name = await leaderName();
      if (!name) throw new Error('no leader');
      const member = byName(name);
      const pid = this.postmasterPid(name);
      await member.service.kill();
      if (pid) process.kill(pid, 'SIGKILL');
      return name;
    },
    async stop() {
      // Replicas first, then the primary (no failover on the way out), then etcd.
      const leader = await leaderName().catch(() => undefined);
      await Promise.all(members.filter((m) => m.name !== leader).map((m) => m.service.stop()));
      await Promise.all(members.map((m) => m.service.stop()));
      await Promise.all(etcd.map((e) => e.stop()));
    },
  };
}
