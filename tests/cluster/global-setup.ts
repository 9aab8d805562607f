/**
 * Starts the cluster (scripts/cluster/index.mjs, as `npm run cluster` does) before the first test and stops it after
 * the last. Tests run in other processes: they find the cluster in CLUSTER_DIR/cluster.json, and ask this process,
 * which owns the cluster's children, to kill or restart an app server, stop and start the replicas or crash the primary
 * database, through a small control server on 127.0.0.1 (with a random token).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startCluster } from '../../scripts/cluster/index.mjs';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = process.env.CLUSTER_DIR!;
  const cluster = await startCluster({
    dir,
    port: Number(process.env.CLUSTER_PORT),
    // Every test logs in from 127.0.0.1: per-IP login limits scale up here, as in playwright.config.ts.
    appEnv: { RATE_LIMIT_IP_FACTOR: '100' },
    log: (line: string) => console.log(line),
  });
  const token = randomBytes(16).toString('hex');
  const actions: Record<string, (target: string) => Promise<unknown>> = {
    'kill-web': (name) => cluster.killWeb(name),
    'start-web': (name) => cluster.startWeb(name),
    // "The replica" is every replica member: reads go through HAProxy to any of them.
    'stop-replica': () => cluster.db.stopReplicas(),
    'start-replica': () => cluster.db.startStopped(),
    'pause-replay': () => cluster.db.pauseReplay(),
    'resume-replay': () => cluster.db.resumeReplay(),
    'web-up': (name) => cluster.isUp(name),
    // Failover: crash the primary's postmaster, or lose its whole member; start a member again; who is what.
    'kill-primary-postmaster': () => cluster.db.killPrimaryPostmaster(),
    'kill-primary-member': () => cluster.db.killPrimaryMember(),
    'start-member': async (name) => cluster.db.startMember(name),
    'db-members': () => cluster.db.clusterState(),
    'db-up-in': (backend) => cluster.upIn(backend as 'postgres_primary' | 'postgres_replicas'),
    'web-pids': async () =>
      [...cluster.webs, { name: 'worker', service: cluster.worker }].map((w) => ({
        name: w.name,
        pid: w.service.pid,
        running: w.service.running,
      })),
  };
  const control = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const action = actions[url.pathname.slice(1)];
    if (req.method !== 'POST' || req.headers.authorization !== `Bearer ${token}` || !action) {
      res.writeHead(404).end();
      return;
    }
    action(url.searchParams.get('target') ?? '').then(
      (value) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: true, value: value ?? null })),
      (error: unknown) =>
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error: String(error) })),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as { port: number };
  writeFileSync(
    path.join(dir, 'cluster.json'),
    `${JSON.stringify({ ...cluster.describe(), control: { url: `http://127.0.0.1:${port}`, token } }, null, 2)}\n`,
    { mode: 0o600 },
  );
  return async () => {
    control.close();
    await cluster.stop();
  };
}
