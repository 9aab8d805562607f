/**
 * preparePool: repeated query texts become named prepared statements, one-offs stay unnamed, and the cap holds; and the
 * feed's pool beside the process-wide one.
 */
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { closeDb, connect, db, feedDb, preparePool, useDb } from './client.ts';
import * as schema from './schema.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(async () => {
  await t.close();
});

/** A one-connection pool, so that the session's pg_prepared_statements shows what it prepared. */
async function single(maxPrepared?: number) {
  const pool = preparePool(new pg.Pool({ connectionString: t.url, max: 1 }), maxPrepared);
  // pool.end() resolves before its connection's socket has closed; the DROP DATABASE ... WITH (FORCE) after the last
  // test may then terminate it, and an 'error' without a listener would be an uncaught exception of the whole run.
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') throw error;
  });
  const db = drizzle(pool, { schema });
  const prepared = async () =>
    (await pool.query('select name, statement from pg_prepared_statements order by name')).rows as {
      name: string;
      statement: string;
    }[];
  return { pool, db, prepared };
}

describe('preparePool', () => {
  it('prepares a text on its second run and answers the same rows every time', async () => {
    const { pool, db, prepared } = await single();
    try {
      const read = () =>
        db
          .select({ id: schema.users.id, nickname: schema.users.nickname })
          .from(schema.users)
          .where(eq(schema.users.id, 1));
      const first = await read();
      expect(await prepared()).toEqual([]);
      const second = await read();
      const third = await read();
      expect(second).toEqual(first);
      expect(third).toEqual(first);
      expect(first).toHaveLength(1);
      const names = await prepared();
      expect(names).toHaveLength(1);
      expect(names[0]!.name).toBe('sy1');
      expect(names[0]!.statement).toContain('"users"');
      // Different parameters reuse the same statement.
      expect(await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, 2))).toEqual([
        { id: 2 },
      ]);
      expect(await prepared()).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it('names no more statements than its cap, and unnamed texts still run', async () => {
    const { pool, db, prepared } = await single(1);
    try {
      const a = () => db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, 1));
      const b = () => db.select({ id: schema.videos.id }).from(schema.videos).where(eq(schema.videos.id, 1));
      for (let i = 0; i < 3; i++) {
        expect(await a()).toEqual([{ id: 1 }]);
        expect(await b()).toEqual([{ id: 1 }]);
      }
      expect((await prepared()).map((r) => r.name)).toEqual(['sy1']);
    } finally {
      await pool.end();
    }
  });

  it('prepares a transaction’s repeated statements too, on the client the transaction checked out', async () => {
    const { pool, db, prepared } = await single();
    try {
      const bump = () =>
        db.transaction(async (tx) => {
          await tx
            .update(schema.users)
            .set({ followingCount: sql`${schema.users.followingCount} + 0` })
            .where(eq(schema.users.id, 2));
          return tx.select({ n: schema.users.followingCount }).from(schema.users).where(eq(schema.users.id, 2));
        });
      const first = await bump();
      expect((await prepared()).filter((p) => p.statement.startsWith('update'))).toEqual([]);
      expect(await bump()).toEqual(first);
      expect(await bump()).toEqual(first);
      const names = await prepared();
      expect(names.some((p) => p.statement.startsWith('update "users"'))).toBe(true);
      expect(names.some((p) => p.statement.startsWith('select "following_count"'))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('leaves transactions on their own client working', async () => {
    const { pool, db } = await single();
    try {
      const before = (
        await db.select({ n: schema.users.nickname }).from(schema.users).where(eq(schema.users.id, 1))
      )[0]!.n;
      await db.transaction(async (tx) => {
        await tx
          .update(schema.users)
          .set({ nickname: `${before}!` })
          .where(eq(schema.users.id, 1));
      });
      const after = await db.select({ n: schema.users.nickname }).from(schema.users).where(eq(schema.users.id, 1));
      expect(after[0]!.n).toBe(`${before}!`);
    } finally {
      await pool.end();
    }
  });
});

describe('connect', () => {
  it('survives the server ending a connection checked out for a transaction (a failover), and reconnects', async () => {
    const { pool } = connect(t.url, 2);
    try {
      const held = await pool.connect();
      const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
      const ended = new Promise((resolve) => held.once('end', resolve));
      // Without a listener of its own, the checked-out client's 'error' would be an uncaught exception of the run.
      await pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await ended;
      held.release(true);
      expect((await pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});

describe('feedDb', () => {
  /** Runs `body` with the process-wide handles opened from the configuration, as a server opens them. */
  async function asServer(env: Record<string, string>, body: () => Promise<void>): Promise<void> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    await closeDb();
    try {
      await body();
    } finally {
      await closeDb();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      useDb(t.db);
    }
  }

  it("holds the feed's reads to PG_FEED_POOL_MAX backends of their own while db()'s pool answers the rest", async () => {
    await asServer({ DATABASE_URL: t.url, PG_FEED_POOL_MAX: '2' }, async () => {
      const feed = feedDb();
      expect(feed).not.toBe(db());
      expect(feedDb()).toBe(feed);
      // Written into the text (a parameter would not show in pg_stat_activity), so only these statements match.
      const tag = `feed_pool_${process.pid}_${Date.now()}`;
      const running = sql`select count(*)::int as n from pg_stat_activity
        where pid <> pg_backend_pid() and state = 'active' and query like ${`%${tag}%`}`;
      let done = false;
      const reads = Promise.all(
        Array.from({ length: 6 }, () => feed.execute(sql.raw(`select pg_sleep(0.15) as "${tag}"`))),
      ).finally(() => (done = true));
      // While the six wait their turn on the feed's two connections, the other pool answers, and no third runs.
      const seen: number[] = [];
      while (!done) {
        const { rows } = await db().execute<{ n: number }>(running);
        seen.push(rows[0]!.n);
      }
      await reads;
      expect(Math.max(...seen)).toBe(2);
      expect(seen.length).toBeGreaterThan(1);
    });
  });

  it('is db() with PG_FEED_POOL_MAX=0, and wherever a test has set the process-wide handle', async () => {
    expect(feedDb()).toBe(t.db);
    await asServer({ DATABASE_URL: t.url, PG_FEED_POOL_MAX: '0' }, async () => {
      expect(feedDb()).toBe(db());
    });
  });
});
