/**
 * What the cluster's specs share: the running cluster (CLUSTER_DIR/cluster.json, written by global-setup.ts), its
 * control server (kill or restart an app server, stop or start the replica), and which app server answered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { ClusterDescription } from '../../scripts/cluster/index.mjs';

export { expect, test, newAccount, signIn, loginDemo, type Session } from '../e2e/support.ts';

interface Running extends ClusterDescription {
  control: { url: string; token: string };
}

let running: Running | undefined;

export function cluster(): Running {
  running ??= JSON.parse(readFileSync(path.join(process.env.CLUSTER_DIR!, 'cluster.json'), 'utf8')) as Running;
  return running;
}

type Action =
  | 'kill-web'
  | 'start-web'
  | 'stop-replica'
  | 'start-replica'
  | 'pause-replay'
  | 'resume-replay'
  | 'web-up'
  | 'kill-primary-postmaster'
  | 'kill-primary-member'
  | 'start-member'
  | 'db-members'
  | 'db-up-in'
  | 'web-pids';

/** Asks the process that owns the cluster to act on it; resolves when done. */
export async function control(action: Action, target = ''): Promise<unknown> {
  const { url, token } = cluster().control;
  const res = await fetch(`${url}/${action}?target=${encodeURIComponent(target)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { ok: boolean; value?: unknown; error?: string };
  if (!body.ok) throw new Error(`${action} ${target}: ${body.error}`);
  return body.value;
}

/** The app server that answered (its SERVER_NAME, from the X-Served-By header); null when none did (the object store). */
export function servedBy(headers: Headers | Record<string, string>): string | null {
  return headers instanceof Headers ? headers.get('x-served-by') : (headers['x-served-by'] ?? null);
}

/** Rows of `sql` run on a database of the cluster (`primary` or `replica`, as the superuser, in the app's database). */
export async function queryOn<T>(where: 'primary' | 'replica', sql: string, params: unknown[] = []): Promise<T[]> {
  const url = new URL(cluster().database[where]);
  url.pathname = '/shanying';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
