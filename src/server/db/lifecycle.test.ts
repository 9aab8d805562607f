import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb } from '../../../tests/setup/test-db.ts';
import type { Log } from '../log.ts';
import { startDatabase } from './lifecycle.ts';

describe('startDatabase on a server named by URL', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await emptyDb();
  });
  afterAll(() => t.close());

  it('migrates and seeds an empty database once, even when two processes start together', async () => {
    const events: { msg: string; ms?: unknown }[] = [];
    const log: Log = (_level, msg, fields) => void events.push({ msg, ...fields });
    const [a, b] = await Promise.all([
      startDatabase({ databaseUrl: t.url, log }),
      startDatabase({ databaseUrl: t.url, log }),
    ]);
    expect(a).toMatchObject({ url: t.url, embedded: false });
    expect(b.embedded).toBe(false);
    expect(events.filter((e) => e.msg === 'db.seed')).toHaveLength(1);
    expect(events.filter((e) => e.msg === 'db.ready')).toHaveLength(2);
    for (const e of events) expect(typeof e.ms).toBe('number');

    const users = async () => Number((await t.pool.query('SELECT count(*) AS n FROM users')).rows[0].n);
    const before = await users();
    expect(before).toBeGreaterThan(50);
    await startDatabase({ databaseUrl: t.url, log });
    expect(await users()).toBe(before);
    await a.stop();
  });
});
