/**
 * The rankings migration on a site that keeps running: its triggers are made in one short transaction, and what the
 * rows held before them is added afterwards, outside any transaction, so no writer waits for the back-fill. Writes
 * made before the triggers, between the triggers and the back-fill, and during the back-fill must all end in the
 * derived tables (热度's hours and scores, the channels' counts, the creators' daily sums) exactly as their definitions
 * over the rows say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { CHANNEL_COUNTS_SQL, CREATOR_DAYS_SQL, HEAT_HOURS_SQL } from './derived.ts';
import { migrateDb, readMigrations } from './migrate.ts';
import { seed } from './seed.ts';

/** Rows where the kept table and the definition disagree (a missing row counts as zeros). */
const MISMATCHES = {
  hours: `
    SELECT coalesce(t.video_id, k.video_id) AS video_id, coalesce(t.hour, k.hour) AS hour, t.weight AS want, k.weight AS got
    FROM (${HEAT_HOURS_SQL}) t FULL JOIN heat_hourly k ON k.video_id = t.video_id AND k.hour = t.hour
    WHERE coalesce(t.weight, 0) <> coalesce(k.weight, 0)
      OR abs(coalesce(t.mass, 0) - coalesce(k.mass, 0)) > 1e-9 * greatest(abs(coalesce(t.mass, 0)), 1)`,
  scores: `
    WITH h AS (${HEAT_HOURS_SQL}), top AS (SELECT video_id, max(hour) AS last FROM h GROUP BY 1),
    t AS (
      SELECT h.video_id, top.last::float8 / 24 + ln(sum(h.mass * exp((h.hour - top.last)::float8 / 24))) AS score
      FROM h JOIN top USING (video_id) GROUP BY h.video_id, top.last
    )
    SELECT coalesce(t.video_id, k.video_id) AS video_id, t.score AS want, k.score AS got
    FROM t FULL JOIN video_heat k ON k.video_id = t.video_id
    WHERE t.score IS NULL OR k.score IS NULL OR abs(t.score - k.score) > 1e-9`,
  channels: `
    SELECT coalesce(t.channel_id, k.channel_id) AS channel_id, t.video_count AS want, k.video_count AS got
    FROM (${CHANNEL_COUNTS_SQL}) t
    FULL JOIN channel_counts k ON k.channel_id = t.channel_id
    WHERE coalesce(t.video_count, 0) <> coalesce(k.video_count, 0)`,
  creators: `
    SELECT coalesce(t.user_id, k.user_id) AS user_id, coalesce(t.day, k.day)::text AS day, t.plays AS want, k.plays AS got
    FROM (${CREATOR_DAYS_SQL}) t
    FULL JOIN author_daily_stats k ON k.user_id = t.user_id AND k.day = t.day
    WHERE coalesce(t.plays, 0) <> coalesce(k.plays, 0) OR coalesce(t.likes, 0) <> coalesce(k.likes, 0)
      OR coalesce(t.comments, 0) <> coalesce(k.comments, 0) OR coalesce(t.shares, 0) <> coalesce(k.shares, 0)`,
};

describe('the rankings migration on a live site', () => {
  let t: TestDb;
  const q = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

  beforeAll(async () => {
    t = await emptyDb();
    await migrateDb(t.url, { until: '_scale_rankings' });
    await seed(t.db);
    // Activity inside 热度's window from before the triggers, some of it taken back once they exist.
    await q(`INSERT INTO likes (user_id, video_id, created_at)
             SELECT u.id, v.id, now() - (u.id % 50) * interval '1 hour'
             FROM (SELECT id FROM users ORDER BY id LIMIT 12) u CROSS JOIN (SELECT id FROM videos ORDER BY id LIMIT 15) v
             ON CONFLICT DO NOTHING`);
  }, 120_000);
  afterAll(() => t?.close());

  it('adds what the rows held before its triggers once, and keeps every write made around it', async () => {
    await migrateDb(t.url, { until: '_scale_indexes' });
    // The triggers exist and the back-fill has not run: the derived tables hold only what was written since.
    expect(await q('SELECT count(*)::int AS n FROM heat_hourly')).toEqual([{ n: 0 }]);

    // Between the triggers and the back-fill: likes taken back (their hours are not there yet, so they go below zero),
    // new likes, a comment deleted and one written, a collect, a work hidden and one moved, plays counted.
    await q(`DELETE FROM likes WHERE (user_id, video_id) IN (
               SELECT user_id, video_id FROM likes WHERE created_at > now() - interval '2 days' ORDER BY 1, 2 LIMIT 20)`);
    await q(`INSERT INTO likes (user_id, video_id, created_at)
             SELECT u.id, v.id, now() FROM (SELECT id FROM users ORDER BY id DESC LIMIT 5) u
             CROSS JOIN (SELECT id FROM videos ORDER BY id DESC LIMIT 4) v ON CONFLICT DO NOTHING`);
    await q(`UPDATE comments SET deleted_at = now() WHERE id IN (
               SELECT id FROM comments WHERE deleted_at IS NULL AND created_at > now() - interval '6 days' ORDER BY id LIMIT 5)`);
    await q(`INSERT INTO comments (video_id, user_id, text) SELECT v.id, 1, '迁移期间的评论'
             FROM (SELECT id FROM videos ORDER BY id LIMIT 3) v`);
    await q(`INSERT INTO collects (user_id, video_id) SELECT u.id, 7 FROM (SELECT id FROM users ORDER BY id DESC LIMIT 3) u
             ON CONFLICT DO NOTHING`);
    await q(`UPDATE videos SET status = 'hidden' WHERE id = (SELECT min(v.id) FROM videos v
               JOIN video_daily_stats s ON s.video_id = v.id WHERE v.status = 'published' AND v.deleted_at IS NULL)`);
    await q(`UPDATE videos SET channel_id = (SELECT max(channel_id) FROM videos) WHERE id = (
               SELECT max(id) FROM videos WHERE status = 'published' AND deleted_at IS NULL AND visibility = 'public'
                 AND channel_id <> (SELECT max(channel_id) FROM videos))`);
    await q(`UPDATE video_daily_stats SET plays = plays + 5, likes = likes + 1 WHERE video_id IN (
               SELECT video_id FROM video_daily_stats ORDER BY video_id DESC LIMIT 10)`);
    const negative = await q('SELECT count(*)::int AS n FROM heat_hourly WHERE weight < 0');
    expect(negative[0].n).toBeGreaterThan(0);

    // During the back-fill, a member keeps liking and taking likes back, and plays keep being counted.
    let going = true;
    let writes = 0;
    const writer = (async () => {
      const pool = t.pool;
      for (let i = 0; going; i++) {
        const video = 1 + (i % 40);
        await pool.query(
          `INSERT INTO likes (user_id, video_id, created_at) VALUES (2, $1, now()) ON CONFLICT DO NOTHING`,
          [video],
        );
        if (i % 3 === 0) await pool.query(`DELETE FROM likes WHERE user_id = 3 AND video_id = $1`, [video]);
        await pool.query(`UPDATE video_daily_stats SET plays = plays + 1 WHERE video_id = $1`, [video]);
        writes += 1;
      }
    })();
    try {
      await migrateDb(t.url);
    } finally {
      going = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(0);

    for (const [name, text] of Object.entries(MISMATCHES)) expect(await q(text), name).toEqual([]);
    expect((await q('SELECT count(*)::int AS n FROM video_heat'))[0].n).toBeGreaterThan(0);
    // Every reference is in force.
    const fks = await q(`SELECT conname, convalidated FROM pg_constraint
      WHERE conname IN ('heat_hourly_video_id_videos_id_fk', 'video_heat_video_id_videos_id_fk',
                        'author_daily_stats_user_id_users_id_fk') ORDER BY 1`);
    expect(fks).toEqual([
      { conname: 'author_daily_stats_user_id_users_id_fk', convalidated: true },
      { conname: 'heat_hourly_video_id_videos_id_fk', convalidated: true },
      { conname: 'video_heat_video_id_videos_id_fk', convalidated: true },
    ]);
  });

  it('gives way to a slower add when a trigger writes a new key while the back-fill inserts it, and counts it once', async () => {
    // A like the triggers did not see (as if made before them), in an hour of a work that has no other activity then.
    const [{ video, at }] = await q(`
      SELECT v.id AS video, date_trunc('hour', now() - interval '3 days') + interval '17 minutes' AS at FROM videos v
      WHERE NOT EXISTS (SELECT 1 FROM heat_hourly h WHERE h.video_id = v.id
                          AND h.hour = heat_hour(date_trunc('hour', now() - interval '3 days')))
      ORDER BY v.id LIMIT 1`);
    const users = (
      await q(
        `SELECT id FROM users u WHERE NOT EXISTS (SELECT 1 FROM likes l WHERE l.user_id = u.id AND l.video_id = $1)
                             ORDER BY id LIMIT 2`,
        [video],
      )
    ).map((r) => r.id);
    await q('ALTER TABLE likes DISABLE TRIGGER likes_heat_insert');
    await q('INSERT INTO likes (user_id, video_id, created_at) VALUES ($1, $2, $3)', [users[0], video, at]);
    await q('ALTER TABLE likes ENABLE TRIGGER likes_heat_insert');
    // Another like of that hour, its transaction still open: its trigger holds the new key, not yet committed.
    const writer = await t.pool.connect();
    const backFill = await t.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('INSERT INTO likes (user_id, video_id, created_at) VALUES ($1, $2, $3)', [
        users[1],
        video,
        at,
      ]);
      // 热度's lane, on its own: its plain insert of the key waits for the open transaction, which then commits.
      const heatLane = readMigrations()
        .find((m) => m.tag.endsWith('_scale_indexes'))!
        .sql.filter((statement) => /^-- migrate: lane heat$/m.test(statement));
      const { rows } = await backFill.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const running = (async () => {
        for (const statement of heatLane) await backFill.query(statement);
      })();
      await expect
        .poll(
          async () =>
            (await q(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [rows[0]!.pid]))[0]
              ?.wait_event_type,
          {
            timeout: 20_000,
          },
        )
        .toBe('Lock');
      await writer.query('COMMIT');
      await running;
    } finally {
      await writer.query('ROLLBACK').catch(() => {});
      writer.release();
      backFill.release();
    }
    expect(await q(`SELECT weight FROM heat_hourly WHERE video_id = $1 AND hour = heat_hour($2)`, [video, at])).toEqual(
      [{ weight: 2 }],
    );
    for (const [name, text] of Object.entries(MISMATCHES)) expect(await q(text), name).toEqual([]);
  });

  it('adds nothing when its back-fill runs again, and the triggers then keep the tables alone', async () => {
    // A crash before the migration is recorded runs its statements again.
    const backFill = readMigrations().find((m) => m.tag.endsWith('_scale_indexes'))!;
    expect(backFill.noTransaction).toBe(true);
    const before = await q('SELECT video_id, hour, weight, mass FROM heat_hourly ORDER BY 1, 2');
    const client = await t.pool.connect();
    try {
      for (const statement of backFill.sql) if (statement.trim()) await client.query(statement);
    } finally {
      client.release();
    }
    expect(await q('SELECT video_id, hour, weight, mass FROM heat_hourly ORDER BY 1, 2')).toEqual(before);
    for (const [name, text] of Object.entries(MISMATCHES)) expect(await q(text), name).toEqual([]);
    await q(`DELETE FROM likes WHERE user_id = 2 AND video_id <= 5`);
    await q(`UPDATE comments SET deleted_at = NULL WHERE deleted_at IS NOT NULL`);
    for (const [name, text] of Object.entries(MISMATCHES)) expect(await q(text), name).toEqual([]);
  });
});
