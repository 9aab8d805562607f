/** Writing planned rows fast: bulk inserts, and identity sequences moved past the ids the seed chose. */
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import type { DbOrTx } from '../types.ts';

const CHUNK = 1000;
const UNNEST_CHUNK = 5000;

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Inserts rows in chunks: as one `INSERT … SELECT * FROM unnest($1::type[], …)` per chunk (a handful of
 * parameters instead of thousands, several times faster than VALUES lists), or as multi-row VALUES when
 * a column is itself an array (unnest would flatten it).
 */
export async function insertAll(
  tx: Tx,
  table: PgTable,
  rows: Record<string, unknown>[],
  explicitIds = false,
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]!);
  const types = keys.map((k) => columns[k]!.getSQLType());
  if (types.some((t) => t.endsWith(']'))) {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK) as never[];
      if (explicitIds) await tx.insert(table).overridingSystemValue().values(chunk);
      else await tx.insert(table).values(chunk);
    }
    return rows.length;
  }
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k]!.name)),
    sql`, `,
  );
  const override = explicitIds ? sql` OVERRIDING SYSTEM VALUE` : sql``;
  for (let i = 0; i < rows.length; i += UNNEST_CHUNK) {
    const chunk = rows.slice(i, i + UNNEST_CHUNK);
    const arrays = keys.map((k, j) => sql`${sql.param(chunk.map((r) => r[k] ?? null))}::${sql.raw(types[j]!)}[]`);
    await tx.execute(
      sql`INSERT INTO ${table} (${names})${override} SELECT * FROM unnest(${sql.join(arrays, sql`, `)})`,
    );
  }
  return rows.length;
}

/** Moves an identity sequence past the explicit ids the seed inserted. */
export async function syncSequence(tx: DbOrTx, table: string): Promise<void> {
  await tx.execute(
    sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${sql.identifier(table)}), false)`,
  );
}
