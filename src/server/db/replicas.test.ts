/**
 * Read replicas against a real primary and a real streaming replica (Debian's postgresql package), and PgBouncer in
 * transaction mode in front of the primary (Debian's pgbouncer): anonymous reads go to the replica, a viewer's reads
 * and every write to the primary; reads survive a stopped or lagging replica; LISTEN and the app's queries work behind
 * the pooler. A missing binary fails the file (scripts/cluster/pg.ts names the package), it never skips.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPgCluster, waitCaughtUp, type PgCluster } from '../../../scripts/cluster/pg.ts';
import { call } from '../../../tests/api/helpers.ts';
import { SEED_NOW } from '../../../tests/setup/global-db.ts';
import { createEmptyDatabase, withClient } from '../../../tests/setup/pg-admin.ts';
import { QUEUES, startQueue, stopQueue } from '../job-queue.ts';
import { hub, publish, PG_CHANNEL, useHub, type HubEvent } from '../realtime/events.ts';
import { createSession } from '../services/sessions.ts';
import { connect, preparePool, useDb, type Db } from './client.ts';
import { migrateDb } from './migrate.ts';
import { withReplicaReads } from './read-scope.ts';
import { isPlainRead, type ReplicaSet } from './replicas.ts';
import { seed } from './seed.ts';
import { loadConfig } from '../config.ts';
import { databaseSettings } from './settings.ts';

const DATABASE = 'shanying';
let cluster: PgCluster;
let primaryUrl: string;
let replicaUrl: string;

/** A routed handle on the cluster, made the process-wide db(). */
interface Routed {
  db: Db;
  pool: pg.Pool;
  replicas: ReplicaSet;
  close(): Promise<void>;
}
const opened: Routed[] = [];

async function routed(maxLagMs: number): Promise<Routed> {
  const { db, pool, replicas } = connect(primaryUrl, { max: 5, replicaUrls: [replicaUrl], maxLagMs, checkMs: 100 });
  await replicas!.check();
  useDb(db);
  const r = {
    db,
    pool,
    replicas: replicas!,
    close: async () => {
      await replicas!.close();
      await pool.end();
    },
  };
  opened.push(r);
  return r;
}

/** Whether a plain read issued now runs on a server in recovery (the replica). */
async function onReplica(db: Db): Promise<boolean> {
  const rows = await db.execute<{ r: boolean }>(sql`select pg_is_in_recovery() as r`);
  return rows.rows[0]!.r;
}

/** Checks `check` (an expectation) every 50 ms until it passes, for at most `timeout` ms. */
const eventually = (check: () => unknown, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 50 });

const stateOf = (r: Routed) => r.replicas.status().replicas[0]!.state;

beforeAll(async () => {
  process.env.API_ANON_CACHE = 'off';
  cluster = await startPgCluster({ replicas: 1, pgbouncer: true, poolSize: 2 });
  primaryUrl = cluster.primary.url(DATABASE);
  replicaUrl = cluster.replicas[0]!.url(DATABASE);
  await withClient(cluster.primary.url(), (client) => createEmptyDatabase(client, DATABASE));
  await migrateDb(primaryUrl);
  const { db, pool } = connect(primaryUrl, 2);
  try {
    await seed(db, { now: new Date(SEED_NOW) });
  } finally {
    await pool.end();
  }
  await waitCaughtUp(cluster.primary, cluster.replicas);
}, 180_000);

afterAll(async () => {
  for (const r of opened) await r.close().catch(() => {});
  await cluster?.stop();
});

describe('waitCaughtUp, which every test here starts from', () => {
  it('waits for a commit the primary has not flushed yet, not only for what it has flushed', async () => {
    // These servers commit asynchronously; a WAL writer that sleeps 10 s leaves the last commit unflushed that long.
    await cluster.primary.query(`alter system set wal_writer_delay = '10s'`);
    try {
      await cluster.primary.query('select pg_reload_conf()');
      await eventually(async () =>
        expect(
          (await cluster.primary.query<{ d: string }>(`select current_setting('wal_writer_delay') as d`))[0]!.d,
        ).toBe('10s'),
      );
      await cluster.primary.query(`update users set signature = 'committed, not yet flushed' where id = 4`, DATABASE);
      await waitCaughtUp(cluster.primary, cluster.replicas);
      expect(await cluster.replicas[0]!.query('select signature from users where id = 4', DATABASE)).toEqual([
        { signature: 'committed, not yet flushed' },
      ]);
    } finally {
      await cluster.primary.query('alter system reset wal_writer_delay');
      await cluster.primary.query('select pg_reload_conf()');
    }
  });
});

describe('routing', () => {
  let r: Routed;
  beforeAll(async () => {
    // A bound far above this file's run: only stopping the replica takes it out here.
    r = await routed(600_000);
  });
  beforeEach(async () => {
    await cluster.replicas[0]!.resumeReplay();
    await waitCaughtUp(cluster.primary, cluster.replicas);
  });

  it('sends a visitor’s API reads to the replica and a viewer’s to the primary', async () => {
    const feed = await call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 1 } });
    // An empty list comes from a replica without the seed: the message carries the answer and the replica as routed.
    expect(feed.body?.aweme_list?.length, `${feed.status} ${feed.text} ${JSON.stringify(r.replicas.status())}`).toBe(1);
    const id = String(feed.body.aweme_list[0].aweme_id);
    const before = (await call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: id } })).body.aweme_detail
      .desc as string;
    // With replay paused, the replica keeps the old description: an answer carrying it came from the replica.
    await cluster.replicas[0]!.pauseReplay();
    const changed = `${before} (changed on the primary)`;
    await cluster.primary.query(
      `update videos set "desc" = '${changed.replaceAll("'", "''")}' where id = ${Number(id)}`,
      DATABASE,
    );
    const { token } = await createSession(1);

    const anonymous = await call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: id } });
    const viewer = await call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: id }, token });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.aweme_detail.desc).toBe(before);
    expect(viewer.status).toBe(200);
    expect(viewer.body.aweme_detail.desc).toBe(changed);
  });

  it('answers the QR ticket a visitor just made from the primary, though the replica has not seen it', async () => {
    await cluster.replicas[0]!.pauseReplay();
    const created = await call('POST', '/api/passport/qr/create', { form: {} });
    expect(created.status).toBe(200);
    const status = await call('GET', '/api/passport/qr/status', { query: { ticket: created.body.ticket } });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('pending');
  });

  it('runs writes and transactions of a replica-routed request on the primary, and its later reads too', async () => {
    await withReplicaReads(async () => {
      expect(await onReplica(r.db)).toBe(true);
      // A write outside a transaction goes to the primary, and what follows must see it.
      await r.db.execute(sql`update users set signature = signature where id = 1`);
      expect(await onReplica(r.db)).toBe(false);
    });
    await withReplicaReads(async () => {
      expect(await onReplica(r.db)).toBe(true);
      // So does a transaction (it may have written).
      expect(
        await r.db.transaction(
          async (tx) => (await tx.execute<{ r: boolean }>(sql`select pg_is_in_recovery() as r`)).rows[0]!.r,
        ),
      ).toBe(false);
      expect(await onReplica(r.db)).toBe(false);
    });
    // Outside a replica scope (a logged-in viewer, a worker), everything is the primary's.
    expect(await onReplica(r.db)).toBe(false);
  });

  it('falls back to the primary when the replica is stopped, after one failed attempt, and takes it back once it answers', async () => {
    const replica = cluster.replicas[0]!;
    const attempts = () => r.replicas.status().replicas[0]!.reads;
    expect(stateOf(r)).toBe('up');
    await replica.stop();
    try {
      const before = attempts();
      const answers = await withReplicaReads(async () => {
        const seen: boolean[] = [];
        for (let i = 0; i < 20; i++) seen.push(await onReplica(r.db));
        return seen;
      });
      expect(answers).toEqual(Array(20).fill(false));
      // One attempt, or none when the background check noticed first.
      expect(attempts() - before).toBeLessThanOrEqual(1);
      expect(stateOf(r)).toBe('down');
      // A visitor's API read meanwhile is answered, not failed.
      const feed = await call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 3 } });
      expect(feed.status).toBe(200);
      expect(feed.body.aweme_list).toHaveLength(3);
    } finally {
      await replica.start();
    }
    await eventually(() => expect(stateOf(r)).toBe('up'));
    expect(await withReplicaReads(() => onReplica(r.db))).toBe(true);
  });

  it('sends most of a short anonymous load to the replica', async () => {
    const before = r.replicas.status();
    const paths = [
      '/api/aweme/v1/web/tab/feed/',
      '/api/aweme/v1/web/hot/search/list/',
      '/api/aweme/v1/web/hot/aweme/list/',
    ];
    const feed = await call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 5 } });
    const ids = (feed.body.aweme_list as { aweme_id: string }[]).map((a) => a.aweme_id);
    const requests: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 40; i++) {
      requests.push(call('GET', paths[i % paths.length]!, { query: { count: 10 } }));
      requests.push(call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: ids[i % ids.length]! } }));
      requests.push(
        call('GET', '/api/aweme/v1/web/comment/list/', { query: { aweme_id: ids[i % ids.length]!, count: 10 } }),
      );
    }
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const after = r.replicas.status();
    const onReplicaReads = after.replicas[0]!.reads - before.replicas[0]!.reads;
    const onPrimary = after.primaryQueries - before.primaryQueries;
    const share = onReplicaReads / (onReplicaReads + onPrimary);
    console.log(
      `anonymous load: ${answers.length} requests, ${onReplicaReads} queries on the replica, ${onPrimary} on the primary (${(share * 100).toFixed(1)}% replica)`,
    );
    expect(onReplicaReads).toBeGreaterThan(answers.length);
    expect(share).toBeGreaterThan(0.95);
  });
});

describe('a busy replica', () => {
  it('stays in when a read waits too long for one of its connections: that read goes to the primary', async () => {
    const { db, pool, replicas } = connect(primaryUrl, {
      max: 1,
      replicaUrls: [replicaUrl],
      maxLagMs: 600_000,
      checkMs: 60_000,
    });
    try {
      await replicas!.check();
      expect(replicas!.status().replicas[0]!.state).toBe('up');
      // The replica's one connection is held for 2.5 s; the second read waits for it past the 1 s connect timeout.
      const [held, waited] = await withReplicaReads(() =>
        Promise.all([
          db.execute<{ r: boolean }>(sql`select pg_is_in_recovery() as r, pg_sleep(2.5)`),
          new Promise((r) => setTimeout(r, 100)).then(() =>
            db.execute<{ r: boolean }>(sql`select pg_is_in_recovery() as r`),
          ),
        ]),
      );
      expect(held.rows[0]!.r).toBe(true);
      expect(waited.rows[0]!.r).toBe(false);
      expect(replicas!.status().replicas[0]!.state).toBe('up');
      expect(await withReplicaReads(() => onReplica(db))).toBe(true);
    } finally {
      await replicas!.close();
      await pool.end();
    }
  });
});

describe('lag', () => {
  it('leaves a replica behind by more than the bound out, and takes it back once it has caught up', async () => {
    const r = await routed(1_000);
    const replica = cluster.replicas[0]!;
    await replica.resumeReplay();
    await eventually(() => expect(stateOf(r)).toBe('up'));
    expect(await withReplicaReads(() => onReplica(r.db))).toBe(true);

    // A primary where nothing is written for longer than the bound is not lag: the replica has all there is.
    await new Promise((res) => setTimeout(res, 2_500));
    expect(stateOf(r)).toBe('up');

    await replica.pauseReplay();
    await cluster.primary.query(`update users set signature = 'lag test' where id = 2`, DATABASE);
    await eventually(() => expect(stateOf(r)).toBe('lagging'));
    const read = await withReplicaReads(async () => ({
      recovery: await onReplica(r.db),
      signature: (await r.db.execute<{ signature: string }>(sql`select signature from users where id = 2`)).rows[0]!
        .signature,
    }));
    expect(read).toEqual({ recovery: false, signature: 'lag test' });

    await replica.resumeReplay();
    await eventually(() => expect(stateOf(r)).toBe('up'));
    expect(
      await withReplicaReads(() =>
        r.db.execute<{ signature: string }>(sql`select signature from users where id = 2`),
      ).then((x) => x.rows[0]!.signature),
    ).toBe('lag test');
  });
});

describe('behind PgBouncer in transaction mode', () => {
  it('refuses named statements there, which is why DATABASE_DIRECT_URL turns preparing off', async () => {
    expect(
      databaseSettings(loadConfig({ DATABASE_URL: cluster.pgbouncer!.url(DATABASE), DATABASE_DIRECT_URL: primaryUrl }))
        .prepare,
    ).toBe(false);
    expect(databaseSettings(loadConfig({ DATABASE_URL: primaryUrl })).prepare).toBe(true);
    expect(
      databaseSettings(
        loadConfig({ DATABASE_URL: primaryUrl, DATABASE_DIRECT_URL: primaryUrl, DATABASE_PREPARE: 'off' }),
      ).prepare,
    ).toBe(false);

    // One client prepares its statement on a server connection; a transaction elsewhere then holds that connection
    // (PgBouncer reuses the most recent one first), so the client's next run lands on another.
    const attempt = async (prepare: boolean) => {
      const raw = new pg.Pool({ connectionString: cluster.pgbouncer!.url(DATABASE), max: 1 });
      const p = prepare ? preparePool(raw) : raw;
      const other = new pg.Client({ connectionString: cluster.pgbouncer!.url(DATABASE) });
      await other.connect();
      try {
        const q = { text: 'select nickname from users where id = $1', values: [1] };
        await p.query(q);
        await p.query(q);
        await other.query('begin');
        await other.query('select 1');
        return await p.query(q).then(
          (res) => res.rows[0].nickname as string,
          (error: unknown) => error as Error,
        );
      } finally {
        await other.query('rollback').catch(() => {});
        await other.end();
        await p.end();
      }
    };
    expect(await attempt(true)).toBeInstanceOf(Error);
    expect(typeof (await attempt(false))).toBe('string');
  });

  it('answers the app’s reads and writes through the pooler with preparing off', async () => {
    const settings = databaseSettings(
      loadConfig({
        DATABASE_URL: cluster.pgbouncer!.url(DATABASE),
        DATABASE_DIRECT_URL: primaryUrl,
      }),
    );
    const { db, pool } = connect(settings.url!, { max: 8, prepare: settings.prepare });
    useDb(db);
    try {
      const { token } = await createSession(3);
      const feed = await call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 5 } });
      const ids = (feed.body.aweme_list as { aweme_id: string }[]).map((a) => a.aweme_id);
      const requests: Promise<{ status: number }>[] = [];
      for (let i = 0; i < 30; i++) {
        const id = ids[i % ids.length]!;
        requests.push(call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: id }, token }));
        requests.push(call('GET', '/api/aweme/v1/web/comment/list/', { query: { aweme_id: id, count: 5 } }));
        requests.push(call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 5 }, token }));
      }
      const answers = await Promise.all(requests);
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      const like = await call('POST', '/api/aweme/v1/web/commit/item/digg/', {
        form: { aweme_id: ids[0]!, type: 1 },
        token,
      });
      expect(like.status).toBe(200);
      const detail = await call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: ids[0]! }, token });
      expect(detail.body.aweme_detail.user_digged).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('runs the job queue (pg-boss: its schema, queues, jobs) through the pooler', async () => {
    const boss = await startQueue(cluster.pgbouncer!.url(DATABASE));
    try {
      const id = await boss.send(QUEUES.removeMedia, { keys: [] });
      const [job] = await boss.fetch(QUEUES.removeMedia);
      expect(job?.id).toBe(id);
      await boss.complete(QUEUES.removeMedia, job!.id);
      expect((await boss.getJobById(QUEUES.removeMedia, id!))?.state).toBe('completed');
    } finally {
      await stopQueue();
    }
  });

  it('hears NOTIFY on the direct URL while DATABASE_URL is the pooler', async () => {
    const saved = { url: process.env.DATABASE_URL, direct: process.env.DATABASE_DIRECT_URL };
    process.env.DATABASE_URL = cluster.pgbouncer!.url(DATABASE);
    process.env.DATABASE_DIRECT_URL = primaryUrl;
    const previous = useHub(undefined);
    const { db, pool } = connect(process.env.DATABASE_URL, { max: 2, prepare: false });
    useDb(db);
    try {
      const h = hub();
      const heard: HubEvent[] = [];
      const unsubscribe = h.subscribe(['user:9'], (e) => heard.push(e));
      await h.ready();
      // The LISTEN session is on the primary itself, not a pooled server connection.
      const listening = await cluster.primary.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where query ilike 'LISTEN ${PG_CHANNEL}%'`,
        DATABASE,
      );
      expect(listening[0]!.n).toBe(1);
      // Published through the pooler, inside a transaction and out of one.
      await publish('user:9', { type: 'notice', data: { n: 1 } });
      await db.transaction((tx) => publish('user:9', { type: 'notice', data: { n: 2 } }, tx));
      await eventually(() => expect(heard).toHaveLength(2), 5_000);
      expect(heard.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      unsubscribe();
      await h.close();
    } finally {
      useHub(previous);
      await pool.end();
      process.env.DATABASE_URL = saved.url;
      process.env.DATABASE_DIRECT_URL = saved.direct;
      if (saved.url === undefined) delete process.env.DATABASE_URL;
      if (saved.direct === undefined) delete process.env.DATABASE_DIRECT_URL;
    }
  });
});

describe('isPlainRead', () => {
  it.each([
    ['select 1', true],
    ['(select 1) union all (select 2)', true],
    ['  SELECT "id" from "videos" where "id" = $1', true],
    ['select pg_notify($1, $2)', false],
    ['select * from "users" where "id" = $1 for update', false],
    ['select nextval($1)', false],
    ['insert into "users" ("id") values ($1)', false],
    ['with x as (update "users" set "bio" = $1 returning 1) select * from x', false],
  ])('%s → %s', (text, plain) => {
    expect(isPlainRead(text)).toBe(plain);
  });
});
