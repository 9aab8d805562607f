/**
 * 闪映 as a cluster on one machine, from Debian's packages and the project's own processes:
 *
 *   nginx, the shared cache (deploy/nginx.conf)
 *    └─ HAProxy (deploy/haproxy.cfg) ─┬─ web1: node server.ts ─┬─ PgBouncer (deploy/pgbouncer.ini) ─┐
 *                                     ├─ web2: node server.ts ─┤   LISTEN, migrations, job queue ──┴─ HAProxy :primary ─┐
 *                                     │                        └─ anonymous reads ─────────────────── HAProxy :replicas ─┤
 *                                     └─ /media/ ── S3-compatible store ◀── worker: node worker.ts (transcodes uploads)   │
 *   PostgreSQL under Patroni (deploy/patroni.yml): pg1, pg2, pg3, one primary and two replicas (one synchronous) ◀──┘
 *   with a three-member etcd holding the leader lock; HAProxy asks each member's REST API which is which.
 *
 * `startCluster()` starts it all as child processes (logs under <dir>/logs) and answers a handle to stop it, kill or
 * restart an app server, take one out of HAProxy's rotation, make the replicas lag or stop, and crash the primary. `npm run cluster`
 * (scripts/cluster.mjs), `npm run test:cluster` and `npm run bench:cluster` all start it through here.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNginx } from './nginx.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { startPatroni } from './patroni.mjs';
import { startObjectStore } from './s3.mjs';
import { freePort, isListening, Service, waitFor } from './processes.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const secret = () => randomBytes(18).toString('base64url');

/** Sends one command to HAProxy's runtime API (the admin socket) and answers its reply. */
export function haproxyCommand(socketPath, command) {
  return new Promise((resolve, reject) => {
    let reply = '';
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply.trim()));
    socket.on('error', reject);
  });
}

/**
 * Starts the cluster under `dir` (wiped first). `port` is HAProxy's (0: a free one); `webServers` how many app
 * servers (HAProxy's file names two); `appEnv` is added to every app server's and the worker's environment.
 */
export async function startCluster({ dir, port = 0, appEnv = {}, log = (line) => console.log(line) } = {}) {
  if (!dir) throw new Error('startCluster needs a dir');
  dir = path.resolve(dir);
  const started = performance.now();
  const step = (what) => log(`[cluster ${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);
  rmSync(dir, { recursive: true, force: true });
  const logDir = path.join(dir, 'logs');
  const dataDir = path.join(dir, 'data');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  // PostgreSQL and PgBouncer run as postgres: they must be able to enter the directory and write their logs.
  chmodSync(dir, 0o755);
  chmodSync(logDir, 0o777);

  const services = [];
  const stopAll = async () => {
    // Front to back: nothing new comes in while what it needs goes away.
    for (const service of [...services].reverse()) await service.stop().catch(() => {});
  };

  try {
    const ports = {
      edge: port || (await freePort()),
      lb: await freePort(),
      // HAProxy's ports in front of PostgreSQL: the primary, whichever member it is, and the replicas.
      primary: await freePort(),
      replica: await freePort(),
      // Three etcd members (client and peer ports), three Patroni members (PostgreSQL and REST API ports).
      etcd: [
        { client: await freePort(), peer: await freePort() },
        { client: await freePort(), peer: await freePort() },
        { client: await freePort(), peer: await freePort() },
      ],
      pg: [await freePort(), await freePort(), await freePort()],
      api: [await freePort(), await freePort(), await freePort()],
      pgbouncer: await freePort(),
      s3: await freePort(),
      web: [await freePort(), await freePort()],
      // Each app server's RTMP ingest, and HAProxy's RTMP front door that spreads publishers over them.
      rtmp: [await freePort(), await freePort()],
      rtmpLb: await freePort(),
    };
    if (await isListening(ports.edge)) throw new Error(`port ${ports.edge} is taken: choose another (CLUSTER_PORT)`);
    const passwords = { postgres: secret(), replicator: secret(), app: secret() };

    step(`etcd on ${ports.etcd.map((p) => p.client).join(', ')}; Patroni members on ${ports.pg.join(', ')}`);
    const db = await startPatroni({ root: ROOT, dir: path.join(dir, 'pg'), logDir, ports, passwords, log: step });
    // One stop for all of it: replicas first, then the primary (no failover on the way out), then etcd.
    services.push({ stop: () => db.stop() });

    step(`S3-compatible store on ${ports.s3}`);
    const store = await startObjectStore({ root: ROOT, dir: path.join(dir, 's3'), logDir, port: ports.s3 });
    services.push(store.service);

    // HAProxy first: PostgreSQL is reached through it. The app servers are down until they start, which it notices.
    const adminSocket = path.join(dir, 'haproxy.sock');
    step(`HAProxy on ${ports.lb}, PostgreSQL primary on ${ports.primary}, replicas on ${ports.replica}`);
    const haproxy = new Service('haproxy', 'haproxy', ['-db', '-f', path.join(ROOT, 'deploy', 'haproxy.cfg')], {
      env: {
        PATH: process.env.PATH,
        LB_BIND: `127.0.0.1:${ports.lb}`,
        LB_FORWARDED_PROTO: 'http',
        WEB1: `127.0.0.1:${ports.web[0]}`,
        WEB2: `127.0.0.1:${ports.web[1]}`,
        S3_ADDR: `127.0.0.1:${ports.s3}`,
        RTMP_BIND: `127.0.0.1:${ports.rtmpLb}`,
        RTMP1: `127.0.0.1:${ports.rtmp[0]}`,
        RTMP2: `127.0.0.1:${ports.rtmp[1]}`,
        MEDIA_S3_PATH: store.mediaPath,
        HAPROXY_ADMIN_SOCKET: adminSocket,
        PG_PRIMARY_BIND: `127.0.0.1:${ports.primary}`,
        PG_REPLICA_BIND: `127.0.0.1:${ports.replica}`,
        ...Object.fromEntries(ports.pg.map((p, i) => [`PG${i + 1}`, `127.0.0.1:${p}`])),
        ...Object.fromEntries(ports.api.map((p, i) => [`PG${i + 1}_API_PORT`, String(p)])),
      },
      cwd: dir,
      logFile: path.join(logDir, 'haproxy.log'),
      // The whole cluster is going away: no soft stop, which would wait for hour-long event streams.
      stopSignal: 'SIGTERM',
      graceMs: 5_000,
    });
    services.push(haproxy.start());
    const stat = async () => (await haproxyCommand(adminSocket, 'show stat')).split('\n');
    const up = async (name, backend = 'app') =>
      (await stat()).some((row) => row.startsWith(`${backend},${name},`) && row.split(',')[17] === 'UP');
    /** The servers HAProxy counts up in `backend` (postgres_primary, postgres_replicas). */
    const upIn = async (backend) =>
      (await stat())
        .filter((row) => row.startsWith(`${backend},pg`) && row.split(',')[17] === 'UP')
        .map((row) => row.split(',')[1]);
    await waitFor(
      'HAProxy sends PostgreSQL connections to the primary and the replicas',
      async () =>
        existsSync(adminSocket) &&
        (await upIn('postgres_primary')).length === 1 &&
        (await upIn('postgres_replicas')).length === 2,
      { detail: () => haproxy.tail() },
    );

    step(`PgBouncer on ${ports.pgbouncer}`);
    services.push(
      await startPgBouncer({
        root: ROOT,
        dir: path.join(dir, 'pgbouncer'),
        logDir,
        port: ports.pgbouncer,
        primaryPort: ports.primary,
        users: { shanying: passwords.app },
      }),
    );

    const env = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      // One DATA_DIR for every app server and the worker: a tus upload's chunks may reach either server, and the
      // worker reads the finished file from there (on several machines: a shared volume).
      DATA_DIR: dataDir,
      DATABASE_URL: db.appUrl(ports.pgbouncer),
      // The direct line (LISTEN, migrations, the job queue's locks) goes through HAProxy too: to the primary of now.
      DATABASE_DIRECT_URL: db.appUrl(ports.primary),
      DATABASE_REPLICA_URLS: db.appUrl(ports.replica),
      DATABASE_PREPARE: 'off',
      ...store.env,
      TRUST_PROXY: '1',
      MAX_CONNECTIONS_PER_IP: '0',
      WORKER: 'off',
      WORKERS: '0',
      ...appEnv,
    };
    delete env.PORT;

    step('sample media into the bucket (npm run media:to-store)');
    const copy = spawnSync('npm', ['run', '--silent', 'media:to-store'], { cwd: ROOT, env, encoding: 'utf8' });
    writeFileSync(path.join(logDir, 'media-to-store.log'), `${copy.stdout ?? ''}${copy.stderr ?? ''}`);
    if (copy.status !== 0) throw new Error(`npm run media:to-store failed:\n${copy.stdout}${copy.stderr}`);

    const webs = ports.web.map((webPort, i) => {
      const name = `web${i + 1}`;
      return {
        name,
        port: webPort,
        url: `http://127.0.0.1:${webPort}`,
        rtmpPort: ports.rtmp[i],
        service: new Service(name, process.execPath, ['--max-semi-space-size=16', 'server.ts'], {
          // A stream ingested by one server is relayed by the others from LIVE_INTERNAL_URL.
          env: {
            ...env,
            PORT: String(webPort),
            SERVER_NAME: name,
            RTMP_PORT: String(ports.rtmp[i]),
            LIVE_INTERNAL_URL: `http://127.0.0.1:${webPort}`,
            LIVE_RTMP_URL: `rtmp://127.0.0.1:${ports.rtmpLb}/live`,
          },
          cwd: ROOT,
          logFile: path.join(logDir, `${name}.log`),
        }),
      };
    });
    const ready = (web) =>
      waitFor(
        `${web.name} is ready`,
        async () => {
          if (!web.service.running) throw new Error(`${web.name} exited`);
          return (await fetch(`${web.url}/readyz`).catch(() => null))?.status === 200;
        },
        { timeoutMs: 120_000, detail: () => web.service.tail() },
      );

    // The first server migrates and seeds; the others then start on a ready database.
    step(`app server web1 on ${webs[0].port} (migrations, seed)`);
    services.push(webs[0].service.start());
    await ready(webs[0]);
    step(`app server web2 on ${webs[1].port}, worker`);
    for (const web of webs.slice(1)) services.push(web.service.start());
    const worker = new Service('worker', process.execPath, ['worker.ts'], {
      env: { ...env, WORKER_POLL_SECONDS: '1' },
      cwd: ROOT,
      logFile: path.join(logDir, 'worker.log'),
    });
    services.push(worker.start());
    await Promise.all(webs.slice(1).map(ready));

    const balancer = `http://127.0.0.1:${ports.lb}`;
    await waitFor(
      'HAProxy sees both app servers up',
      async () => existsSync(adminSocket) && (await up('web1')) && (await up('web2')),
      {
        detail: () => haproxy.tail(),
      },
    );

    step(`nginx, the shared cache, on ${ports.edge}`);
    const nginx = await startNginx({
      root: ROOT,
      dir: path.join(dir, 'nginx'),
      logDir,
      port: ports.edge,
      balancerPort: ports.lb,
    });
    services.push(nginx);
    const url = `http://127.0.0.1:${ports.edge}`;

    const cluster = {
      dir,
      url,
      balancer,
      dataDir,
      logDir,
      ports,
      env,
      webs,
      worker,
      db,
      store,
      haproxy,
      nginx,
      adminSocket,
      /** Whether HAProxy currently counts `name` (web1, web2) as up. */
      isUp: (name) => up(name),
      /** The Patroni members HAProxy counts up as the primary (`postgres_primary`) or as replicas (`postgres_replicas`). */
      upIn,
      /** Kills an app server as a crash would (SIGKILL). */
      killWeb: (name) => webs.find((w) => w.name === name).service.kill(),
      /** Stops an app server the way systemd does (SIGTERM: it drains). */
      stopWeb: (name) => webs.find((w) => w.name === name).service.stop(),
      /** Starts an app server again and waits until HAProxy sends it requests. */
      async startWeb(name) {
        const web = webs.find((w) => w.name === name);
        if (!web.service.running) web.service.start();
        await ready(web);
        await waitFor(`HAProxy sees ${name} up`, () => up(name), { detail: () => haproxy.tail() });
      },
      /** Takes an app server out of the rotation ('maint') or puts it back ('ready'), through HAProxy's runtime API. */
      async setWebState(name, state) {
        await haproxyCommand(adminSocket, `set server app/${name} state ${state}`);
        if (state === 'ready') await waitFor(`HAProxy sees ${name} up`, () => up(name));
      },
      stop: stopAll,
      /** What tests and tools outside this process need to reach the cluster. */
      describe() {
        return {
          url,
          balancer,
          dataDir,
          logDir,
          webs: webs.map(({ name, url: webUrl, service, rtmpPort }) => ({
            name,
            url: webUrl,
            pid: service.pid,
            rtmpPort,
          })),
          rtmpUrl: `rtmp://127.0.0.1:${ports.rtmpLb}/live`,
          worker: { pid: worker.pid },
          database: {
            // Through HAProxy: whichever member is the primary, or a replica, at the time of the query.
            primary: db.superuserUrl(ports.primary),
            replica: db.superuserUrl(ports.replica),
            members: db.members.map((m) => ({
              name: m.name,
              url: db.superuserUrl(m.pgPort),
              api: `http://127.0.0.1:${m.apiPort}`,
            })),
            app: env.DATABASE_DIRECT_URL,
          },
          s3: store.env,
        };
      },
    };
    step(`ready: ${url}`);
    return cluster;
  } catch (error) {
    await stopAll();
    throw error;
  }
}
