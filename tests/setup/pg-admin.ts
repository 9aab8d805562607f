/** Small admin helpers for the test databases: URLs, create, drop (shared by the global setup and freshDb). */
import pg from 'pg';

/** `url` with its database replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` on a short-lived client connected to `url`. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty UTF-8 database, whatever the server's default encoding (Debian's may be SQL_ASCII). */
export async function createEmptyDatabase(client: pg.Client, name: string): Promise<void> {
  const { rows } = await client.query<{ enc: string }>(
    "SELECT pg_encoding_to_char(encoding) AS enc FROM pg_database WHERE datname = 'template1'",
  );
  const id = client.escapeIdentifier(name);
  if (rows[0]?.enc === 'UTF8') await client.query(`CREATE DATABASE ${id}`);
  else await client.query(`CREATE DATABASE ${id} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
}

/** Drops a database, ending its sessions. */
export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
}
