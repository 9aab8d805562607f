/**
 * Transactions that lost a race the database resolved by aborting them (a deadlock, 40P01, or a serialization
 * failure, 40001) run once more before their caller hears of it: the second attempt meets the winner's committed rows.
 */
const RETRYABLE = new Set(['40001', '40P01']);

/** The SQLSTATE of a failure, looking through Drizzle's DrizzleQueryError to the pg error it wraps. */
export function sqlState(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Whether running the same transaction again may succeed. */
export function isRetryable(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE.has(code);
}

/** Anything with Drizzle's `transaction` (typed structurally: client.ts imports this module). */
interface Transactional {
  transaction: (...args: never[]) => Promise<unknown>;
}

/** Makes `db.transaction` run a transaction a second time when the first attempt was aborted by a deadlock or a serialization failure. */
export function retryTransactions<D extends Transactional>(db: D): D {
  const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  db.transaction = (async (...args: unknown[]) => {
    try {
      return await transaction(...args);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      return transaction(...args);
    }
  }) as D['transaction'];
  return db;
}
