/**
 * `npm run cluster`: 闪映 as a cluster on this machine (scripts/cluster/index.mjs): nginx's shared cache in front of
 * HAProxy in front of two app servers, PostgreSQL under Patroni (a primary and two replicas, automatic failover), PgBouncer, an S3-compatible store and a media worker. Prints
 * the address to open and runs until Ctrl-C (SIGINT) or SIGTERM, then stops everything it started.
 *
 *   CLUSTER_PORT  nginx's port, where browsers connect (default 8080)
 *   CLUSTER_DIR   where its data and logs go (default .cluster/dev; wiped at each start)
 *
 * Needs Debian's nginx, haproxy, pgbouncer, postgresql, patroni and etcd-server packages; builds the site first when the build is missing or old.
 */
import path from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';
import { ROOT, startCluster } from './cluster/index.mjs';

const port = Number(process.env.CLUSTER_PORT ?? 8080);
const dir = path.resolve(ROOT, process.env.CLUSTER_DIR ?? '.cluster/dev');

buildIfNeeded();
let cluster;
let stopping = false;
async function stop(reason) {
  if (stopping) return;
  stopping = true;
  console.log(`\nStopping the cluster (${reason})…`);
  await cluster?.stop();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(signal));

try {
  cluster = await startCluster({ dir, port });
} catch (error) {
  console.error(`The cluster did not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (stopping) await new Promise(() => {});
const info = cluster.describe();
console.log(`
闪映 cluster: ${info.url}
  shared cache nginx ${info.url} (X-Cache-Status says whether it answered from its copy)
  balancer     HAProxy ${info.balancer}
  app servers  ${info.webs.map((w) => `${w.name} ${w.url}`).join(', ')} (HAProxy alternates; X-Served-By says which answered)
  PostgreSQL   through HAProxy: primary :${cluster.ports.primary}, replicas :${cluster.ports.replica}; PgBouncer :${cluster.ports.pgbouncer}
  Patroni      ${cluster.db.members.map((m) => `${m.name} :${m.pgPort} (REST :${m.apiPort})`).join(', ')}; etcd ${cluster.ports.etcd.map((p) => `:${p.client}`).join(', ')}
  S3 store     ${cluster.store.env.S3_ENDPOINT} (bucket ${cluster.store.bucket}; HAProxy sends /media/ there)
  logs         ${path.relative(process.cwd(), cluster.logDir)}/
Ctrl-C stops it.`);
