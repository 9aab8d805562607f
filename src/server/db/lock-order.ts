/**
 * One lock order for rows that several writers change together. An `update ... where id in (a, b)` does not lock in
 * id order: PostgreSQL visits the rows in physical order (a bitmap heap scan), and an update that cannot stay on its
 * page moves its row, so two transactions can meet the same two rows in opposite orders and deadlock (40P01).
 * `select ... order by id for no key update` locks after sorting, so every writer takes the rows lowest id first.
 */
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from './types.ts';
import { users } from './schema.ts';

/** Locks the users rows of `ids` lowest id first, as the update that follows in the same transaction would. */
export async function lockUsers(tx: DbOrTx, ids: readonly number[]): Promise<void> {
  const distinct = [...new Set(ids)];
  if (distinct.length < 2) return;
  await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, distinct))
    .orderBy(users.id)
    .for('no key update');
}
