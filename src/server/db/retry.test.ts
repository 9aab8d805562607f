import { describe, expect, it } from 'vitest';
import type { Db } from './client.ts';
import { isRetryable, retryTransactions, sqlState } from './retry.ts';

/** A failure shaped as Drizzle throws it: its own error with pg's error as the cause. */
function failure(code: string): Error {
  return new Error('Failed query', { cause: Object.assign(new Error('pg'), { code }) });
}

/** A handle whose transaction fails with `codes` in turn, then answers 'done'; counts attempts. */
function fakeDb(codes: string[]): { db: Db; attempts: () => number } {
  let attempts = 0;
  const db = {
    transaction: async () => {
      const code = codes[attempts++];
      if (code) throw failure(code);
      return 'done';
    },
  } as unknown as Db;
  return { db: retryTransactions(db), attempts: () => attempts };
}

describe('retryTransactions', () => {
  it('runs a transaction aborted by a deadlock or a serialization failure once more', async () => {
    for (const code of ['40P01', '40001']) {
      const { db, attempts } = fakeDb([code]);
      await expect(db.transaction(async () => 'x')).resolves.toBe('done');
      expect(attempts()).toBe(2);
    }
  });

  it('gives up after the second attempt, and never retries other failures', async () => {
    const twice = fakeDb(['40P01', '40P01']);
    await expect(twice.db.transaction(async () => 'x')).rejects.toThrow('Failed query');
    expect(twice.attempts()).toBe(2);
    const unique = fakeDb(['23505']);
    await expect(unique.db.transaction(async () => 'x')).rejects.toThrow('Failed query');
    expect(unique.attempts()).toBe(1);
  });

  it('reads the SQLSTATE through wrapping errors', () => {
    expect(sqlState(failure('40P01'))).toBe('40P01');
    expect(sqlState(new Error('plain'))).toBeUndefined();
    expect(isRetryable(failure('22P02'))).toBe(false);
  });
});
