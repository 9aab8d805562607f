import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { recountAll } from './recount.ts';

// One SQL per counter: the rows whose counter differs from the COUNT behind it.
const CHECKS: Record<string, string> = {
  'users.following_count':
    'SELECT count(*) FROM users u WHERE following_count <> (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)',
  'users.follower_count':
    'SELECT count(*) FROM users u WHERE follower_count <> (SELECT count(*) FROM follows f WHERE f.followee_id = u.id)',
  'users.aweme_count':
    'SELECT count(*) FROM users u WHERE aweme_count <> (SELECT count(*) FROM videos v WHERE v.author_id = u.id AND v.deleted_at IS NULL)',
  'users.total_favorited': `SELECT count(*) FROM users u WHERE total_favorited <>
      (SELECT count(*) FROM likes l JOIN videos v ON v.id = l.video_id WHERE v.author_id = u.id AND v.deleted_at IS NULL)`,
  'users.favoriting_count': `SELECT count(*) FROM users u WHERE favoriting_count <>
      (SELECT count(*) FROM likes l JOIN videos v ON v.id = l.video_id WHERE l.user_id = u.id AND v.deleted_at IS NULL)`,
  'users.collect_count': `SELECT count(*) FROM users u WHERE collect_count <>
      (SELECT count(*) FROM collects c JOIN videos v ON v.id = c.video_id WHERE c.user_id = u.id AND v.deleted_at IS NULL)`,
  'videos.digg_count':
    'SELECT count(*) FROM videos v WHERE digg_count <> (SELECT count(*) FROM likes l WHERE l.video_id = v.id)',
  'videos.collect_count':
    'SELECT count(*) FROM videos v WHERE collect_count <> (SELECT count(*) FROM collects c WHERE c.video_id = v.id)',
  'videos.comment_count':
    'SELECT count(*) FROM videos v WHERE comment_count <> (SELECT count(*) FROM comments c WHERE c.video_id = v.id AND c.deleted_at IS NULL)',
  'videos.play_count': 'SELECT count(*) FROM videos WHERE play_count < digg_count',
  'comments.digg_count':
    'SELECT count(*) FROM comments c WHERE digg_count <> (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id)',
  'comments.reply_count': `SELECT count(*) FROM comments c WHERE reply_count <>
      (SELECT count(*) FROM comments r WHERE r.parent_id = c.id AND r.deleted_at IS NULL)`,
  'series.item_count':
    'SELECT count(*) FROM series s WHERE item_count <> (SELECT count(*) FROM series_items i WHERE i.series_id = s.id)',
};

describe('counters', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb();
  });
  afterAll(() => t.close());

  const mismatches = async () => {
    const out: Record<string, number> = {};
    for (const [name, query] of Object.entries(CHECKS)) {
      const { rows } = await t.pool.query<{ count: string }>(query);
      out[name] = Number(rows[0]!.count);
    }
    return out;
  };
  const zeros = Object.fromEntries(Object.keys(CHECKS).map((k) => [k, 0]));

  it('equal the rows behind them after the seed', async () => {
    expect(await mismatches()).toEqual(zeros);
  });

  it('are not all trivially zero', async () => {
    const { rows } = await t.pool.query(`SELECT
        (SELECT max(follower_count) FROM users) AS followers, (SELECT max(digg_count) FROM videos) AS likes,
        (SELECT max(reply_count) FROM comments) AS replies, (SELECT max(total_favorited) FROM users) AS favorited`);
    for (const value of Object.values(rows[0] as Record<string, number>)) expect(value).toBeGreaterThan(0);
  });

  it('are repaired by recountAll after rows change behind their back', async () => {
    const c = t.pool;
    await c.query('DELETE FROM likes WHERE video_id IN (SELECT id FROM videos ORDER BY id LIMIT 20)');
    await c.query('DELETE FROM follows WHERE follower_id IN (2, 3)');
    await c.query(
      'UPDATE comments SET deleted_at = now() WHERE id IN (SELECT id FROM comments WHERE parent_id IS NOT NULL ORDER BY id LIMIT 30)',
    );
    await c.query('UPDATE videos SET deleted_at = now() WHERE id IN (SELECT id FROM videos ORDER BY id DESC LIMIT 5)');
    await c.query('DELETE FROM series_items WHERE position = 1');
    await c.query('DELETE FROM comment_likes WHERE comment_id IN (SELECT id FROM comments ORDER BY id LIMIT 100)');
    await c.query('DELETE FROM collects WHERE user_id = 4');
    const broken = await mismatches();
    expect(Object.values(broken).filter((n) => n > 0).length).toBeGreaterThanOrEqual(10);
    await recountAll(t.db);
    expect(await mismatches()).toEqual(zeros);
  });
});
