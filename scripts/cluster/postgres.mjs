/** Where Debian's PostgreSQL server binaries are, for the cluster's Patroni members (patroni.mjs). */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

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
