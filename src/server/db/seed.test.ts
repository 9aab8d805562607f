import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, freshDb, seedNow, type TestDb } from '../../../tests/setup/test-db.ts';
import { verifyPassword } from '../services/password.ts';
import { tokenize } from '../services/search-tokens.ts';
import { migrateDb } from './migrate.ts';
import { DEMO_EMAIL, demoPassword, hasDemoAccount, seed } from './seed.ts';
import { INTERACTION_KINDS } from '../../shared/messaging.ts';

/** The seed's notices: every interaction and 开播了 of its past broadcasts; a moderator's notice is never seeded. */
const SEEDED_KINDS = [...INTERACTION_KINDS, 'live'];
import { localStore } from '../media/store.ts';
import { avatarChar, avatarKey, posterKey } from './seed/artwork.ts';
import { CHANNEL_IDS } from './seed/content.ts';
import { loadManifest, manifestPath } from './seed/manifest.ts';

// Everything the seed decides, in a stable order, ids included.
const SNAPSHOT = {
  users:
    'SELECT id, sec_uid, email, nickname, signature, avatar, is_demo, created_at, follower_count FROM users ORDER BY id',
  videos:
    'SELECT id, author_id, channel_id, "desc", media, poster, duration_ms, play_count, share_count, search_tokens, created_at FROM videos ORDER BY id',
  hashtags: 'SELECT h.name, vh.video_id FROM video_hashtags vh JOIN hashtags h ON h.id = vh.hashtag_id ORDER BY 2, 1',
  series:
    'SELECT s.id, s.kind, s.title, s.author_id, i.video_id, i.position FROM series s JOIN series_items i ON i.series_id = s.id ORDER BY 1, 6',
  comments:
    'SELECT id, video_id, user_id, parent_id, reply_to_user_id, text, deleted_at, created_at FROM comments ORDER BY id',
  commentLikes: 'SELECT user_id, comment_id, created_at FROM comment_likes ORDER BY 2, 1',
  follows: 'SELECT follower_id, followee_id, created_at FROM follows ORDER BY 1, 2',
  likes: 'SELECT user_id, video_id, created_at FROM likes ORDER BY 1, 2',
  collects: 'SELECT user_id, video_id FROM collects ORDER BY 1, 2',
  watchLater: 'SELECT user_id, video_id FROM watch_later ORDER BY 1, 2',
  history: 'SELECT user_id, video_id, progress_ms, watched_at FROM watch_history ORDER BY 1, 2',
  danmaku: 'SELECT id, video_id, user_id, text, offset_ms FROM danmaku ORDER BY id',
  live: 'SELECT r.id, r.host_id, r.title, r.status, r.viewer_count, r.started_at, m.text FROM live_rooms r LEFT JOIN live_messages m ON m.room_id = r.id ORDER BY r.id, m.id',
  searches: 'SELECT user_id, query, created_at FROM search_log ORDER BY id',
  notifications: 'SELECT user_id, actor_id, kind, video_id, comment_id, read_at FROM notifications ORDER BY id',
  messages:
    'SELECT c.user_a, c.user_b, m.sender_id, m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id ORDER BY m.id',
  conversationSettings:
    'SELECT conversation_id, user_id, muted, pinned, cleared_at, last_read_at FROM conversation_settings ORDER BY 1, 2',
  videoDailyStats: 'SELECT video_id, day, plays, likes, comments, shares FROM video_daily_stats ORDER BY 1, 2',
  userDailyFollowers: 'SELECT user_id, day, new_followers FROM user_daily_followers ORDER BY 1, 2',
};

async function snapshot(t: TestDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, query] of Object.entries(SNAPSHOT)) out[name] = (await t.pool.query(query)).rows;
  return out;
}

async function scalar(t: TestDb, query: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.pool.query(query, params);
  return Number(Object.values(rows[0] as Record<string, unknown>)[0]);
}

describe('seed', () => {
  let t: TestDb;
  const artworkDir = mkdtempSync(path.join(os.tmpdir(), 'seed-artwork-'));
  beforeAll(async () => {
    t = await freshDb();
  });
  afterAll(async () => {
    await t.close();
    rmSync(artworkDir, { recursive: true, force: true });
  });

  it('is deterministic: two empty databases seeded with the same now match each other and the template', async () => {
    const [a, b] = await Promise.all([emptyDb(), emptyDb()]);
    try {
      await Promise.all([migrateDb(a.url), migrateDb(b.url)]);
      const [sa, sb] = await Promise.all([
        seed(a.db, { now: seedNow(), artwork: localStore(artworkDir) }),
        seed(b.db, { now: seedNow() }),
      ]);
      expect(sa).toEqual(sb);
      const snapA = await snapshot(a);
      expect(await snapshot(b)).toEqual(snapA);
      expect(await snapshot(t)).toEqual(snapA);
      // The pictures the rows point at were written to the media store given: each poster shows its video's title.
      const file = (key: string) => readFileSync(path.join(artworkDir, key), 'utf8');
      for (const row of (
        await a.pool.query(
          'SELECT v.poster, v."desc", u.avatar, u.nickname FROM videos v JOIN users u ON u.id = v.author_id',
        )
      ).rows) {
        const words = file(row.poster).replace(/<[^>]+>/g, '');
        expect(words).toContain(row.nickname);
        for (const part of row.desc.split(' #')[0].split(' ')) expect(words.replaceAll('&#38;', '&')).toContain(part);
        expect(file(row.avatar)).toContain(`>${avatarChar(row.nickname)}<`);
      }
      for (const row of (await a.pool.query('SELECT cover, title FROM live_rooms')).rows)
        expect(file(row.cover).replace(/<[^>]+>/g, '')).toContain(row.title);
      // Sequences continue after the seeded ids.
      const next = await a.pool.query("INSERT INTO hashtags (name) VALUES ('新话题') RETURNING id");
      expect(next.rows[0].id).toBe(sa.hashtags! + 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses a database that already has users', async () => {
    await expect(seed(t.db, { now: seedNow() })).rejects.toThrow(/already has users/);
  });

  it('makes a site of the promised size', async () => {
    expect(await scalar(t, 'SELECT count(*) FROM users')).toBeGreaterThanOrEqual(50);
    expect(await scalar(t, 'SELECT count(*) FROM videos')).toBeGreaterThanOrEqual(300);
    const perChannel = await t.pool.query<{ channel_id: number; n: string }>(
      'SELECT channel_id, count(*) AS n FROM videos GROUP BY 1 ORDER BY 1',
    );
    expect(perChannel.rows.map((r) => r.channel_id)).toEqual([...CHANNEL_IDS]);
    for (const row of perChannel.rows) expect(Number(row.n)).toBeGreaterThanOrEqual(35);
    expect(await scalar(t, "SELECT count(*) FROM series WHERE kind = 'mix'")).toBeGreaterThanOrEqual(6);
    expect(await scalar(t, "SELECT count(*) FROM series WHERE kind = 'theatre'")).toBeGreaterThanOrEqual(8);
    expect(await scalar(t, "SELECT min(item_count) FROM series WHERE kind = 'theatre'")).toBeGreaterThanOrEqual(3);
    // Past broadcasts only: a room is on air while a host really publishes to it.
    expect(
      await scalar(t, "SELECT count(*) FROM live_rooms WHERE status = 'ended' AND ended_at > started_at"),
    ).toBeGreaterThanOrEqual(8);
    expect(await scalar(t, "SELECT count(*) FROM live_rooms WHERE status = 'live'")).toBe(0);
    expect(await scalar(t, 'SELECT count(*) FROM live_messages')).toBeGreaterThan(20);
    expect(await scalar(t, 'SELECT count(*) FROM comments WHERE parent_id IS NULL')).toBeGreaterThanOrEqual(2 * 300);
    expect(
      await scalar(t, 'SELECT count(*) FROM comments WHERE parent_id IS NOT NULL AND reply_to_user_id IS NOT NULL'),
    ).toBeGreaterThan(300);
    expect(
      await scalar(t, "SELECT count(*) FROM comments c JOIN users u ON c.text LIKE '%@' || u.nickname || '%'"),
    ).toBeGreaterThan(20);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM danmaku d JOIN videos v ON v.id = d.video_id WHERE d.offset_ms >= v.duration_ms',
      ),
    ).toBe(0);
    expect(await scalar(t, 'SELECT count(DISTINCT video_id) FROM danmaku')).toBeGreaterThan(100);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM watch_history h JOIN videos v ON v.id = h.video_id WHERE h.progress_ms > v.duration_ms',
      ),
    ).toBe(0);
  });

  it('has audiences that fit its activity: plays above likes above comments and shares, viewers in proportion to chat', async () => {
    const totals = (
      await t.pool.query(
        'SELECT sum(play_count)::int AS plays, sum(digg_count)::int AS likes, sum(comment_count)::int AS comments, sum(share_count)::int AS shares FROM videos',
      )
    ).rows[0];
    expect(totals.plays).toBeGreaterThan(20 * totals.likes);
    expect(totals.likes).toBeGreaterThan(totals.comments);
    expect(totals.likes).toBeGreaterThan(2 * totals.shares);
    // Per video: never fewer plays than likes, nor more shares; comments (threads included) at most a few past the likes.
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM videos WHERE play_count < 20 * digg_count OR share_count > digg_count OR comment_count > digg_count + 10',
      ),
    ).toBe(0);
    expect(await scalar(t, 'SELECT avg((comment_count > digg_count)::int) FROM videos')).toBeLessThan(0.1);
    // Danmaku: a few per clip, at most one for every two seconds of it.
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM (SELECT v.id FROM videos v JOIN danmaku d ON d.video_id = v.id GROUP BY v.id HAVING count(*) > greatest(1, v.duration_ms / 2000)) x',
      ),
    ).toBe(0);
    // Nobody watches a past broadcast, and its chat lines fall within it.
    expect(await scalar(t, 'SELECT count(*) FROM live_rooms WHERE viewer_count <> 0')).toBe(0);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM live_messages m JOIN live_rooms r ON r.id = m.room_id WHERE m.created_at NOT BETWEEN r.started_at AND r.ended_at',
      ),
    ).toBe(0);
  });

  it('has mutual follows, and the demo account follows 15 of whom 8 follow back', async () => {
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM follows a JOIN follows b ON a.follower_id = b.followee_id AND a.followee_id = b.follower_id',
      ),
    ).toBeGreaterThan(40);
    const demo = await scalar(t, 'SELECT id FROM users WHERE email = $1', [DEMO_EMAIL]);
    expect(await scalar(t, 'SELECT count(*) FROM follows WHERE follower_id = $1', [demo])).toBe(15);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM follows a JOIN follows b ON b.follower_id = a.followee_id AND b.followee_id = a.follower_id WHERE a.follower_id = $1',
        [demo],
      ),
    ).toBe(8);
    // 朋友 has videos to show.
    expect(
      await scalar(
        t,
        `SELECT count(*) FROM videos v WHERE v.author_id IN (SELECT a.followee_id FROM follows a JOIN follows b
          ON b.follower_id = a.followee_id AND b.followee_id = a.follower_id WHERE a.follower_id = $1)`,
        [demo],
      ),
    ).toBeGreaterThan(0);
  });

  it('has the demo account, its password and its own videos', async () => {
    expect(await hasDemoAccount(t.db)).toBe(true);
    const { rows } = await t.pool.query('SELECT id, nickname, password_hash, is_demo FROM users WHERE email = $1', [
      DEMO_EMAIL,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].nickname).toBe('闪映体验官');
    expect(rows[0].is_demo).toBe(true);
    expect(await verifyPassword(demoPassword(), rows[0].password_hash)).toBe(true);
    expect(await scalar(t, 'SELECT count(*) FROM users WHERE password_hash IS NOT NULL')).toBe(1);
    expect(await scalar(t, 'SELECT count(*) FROM videos WHERE author_id = $1', [rows[0].id])).toBe(6);
  });

  it('gives the demo account notifications of every interaction kind, one per actor, kind and target, some unread and many read', async () => {
    const demo = await scalar(t, 'SELECT id FROM users WHERE email = $1', [DEMO_EMAIL]);
    const kinds = await t.pool.query('SELECT DISTINCT kind FROM notifications WHERE user_id = $1 ORDER BY 1', [demo]);
    expect(kinds.rows.map((r) => r.kind)).toEqual([...SEEDED_KINDS].sort());
    expect(
      await scalar(
        t,
        `SELECT count(*) FROM (SELECT 1 FROM notifications
        GROUP BY user_id, actor_id, kind, video_id, comment_id HAVING count(*) > 1) d`,
      ),
    ).toBe(0);
    // One notification per comment and recipient, as comment publishing writes them.
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM (SELECT 1 FROM notifications WHERE kind IN ($1, $2, $3) GROUP BY user_id, comment_id HAVING count(*) > 1) d',
        ['comment', 'reply', 'mention'],
      ),
    ).toBe(0);
    expect(await scalar(t, 'SELECT count(*) FROM notifications WHERE actor_id = user_id')).toBe(0);
    const unread = await scalar(t, 'SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL', [demo]);
    const read = await scalar(t, 'SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NOT NULL', [
      demo,
    ]);
    expect(unread).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(unread);
    expect(
      await scalar(t, 'SELECT count(DISTINCT kind) FROM notifications WHERE user_id = $1 AND read_at IS NULL', [demo]),
    ).toBe(SEEDED_KINDS.length);
    // Derived from real rows: every liked-comment notice has its comment like, every danmaku notice its danmaku.
    expect(
      await scalar(
        t,
        `SELECT count(*) FROM notifications n WHERE n.kind = 'like_comment'
      AND NOT EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = n.comment_id AND l.user_id = n.actor_id)`,
      ),
    ).toBe(0);
    expect(
      await scalar(
        t,
        `SELECT count(*) FROM notifications n WHERE n.kind = 'danmaku'
      AND NOT EXISTS (SELECT 1 FROM danmaku d WHERE d.video_id = n.video_id AND d.user_id = n.actor_id AND d.text = n.text)`,
      ),
    ).toBe(0);
  });

  it('gives the demo account conversations: with friends, one unread, one pinned, and one unanswered first message', async () => {
    const demo = await scalar(t, 'SELECT id FROM users WHERE email = $1', [DEMO_EMAIL]);
    const peer = 'CASE WHEN c.user_a = $1 THEN c.user_b ELSE c.user_a END';
    const { rows } = await t.pool.query<{
      id: number;
      peer: number;
      total: number;
      mine: number;
      follows_me: boolean;
      unread: number;
      pinned: boolean;
    }>(
      `SELECT c.id, ${peer} AS peer,
         (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS total,
         (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.sender_id = $1) AS mine,
         EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${peer} AND f.followee_id = $1) AS follows_me,
         (SELECT count(*)::int FROM messages m LEFT JOIN conversation_settings s ON s.conversation_id = c.id AND s.user_id = $1
           WHERE m.conversation_id = c.id AND m.sender_id <> $1 AND m.created_at > coalesce(s.last_read_at, '-infinity')) AS unread,
         coalesce((SELECT pinned FROM conversation_settings s WHERE s.conversation_id = c.id AND s.user_id = $1), false) AS pinned
       FROM conversations c WHERE $1 IN (c.user_a, c.user_b) ORDER BY c.id`,
      [demo],
    );
    expect(rows.filter((r) => r.follows_me && r.total > 1).length).toBeGreaterThanOrEqual(4);
    const hinted = rows.filter((r) => r.total === 1 && r.mine === 1 && !r.follows_me);
    expect(hinted).toHaveLength(1);
    expect(rows.filter((r) => r.unread > 0).length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((r) => r.pinned)).toHaveLength(1);
    // The conversation list opens on the rest read: only the one conversation has unread messages.
    expect(rows.filter((r) => r.unread > 0 && r.peer !== hinted[0]!.peer)).toHaveLength(1);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.created_at < c.created_at OR m.created_at > c.last_message_at',
      ),
    ).toBe(0);
  });

  it('spreads activity over 60 days with a good share in the last 48 hours before now', async () => {
    const now = seedNow();
    const share = async (table: string, column: string) =>
      scalar(t, `SELECT avg((${column} > $1::timestamptz - interval '48 hours')::int) FROM ${table}`, [now]);
    expect(await share('videos', 'created_at')).toBeGreaterThan(0.15);
    expect(await share('likes', 'created_at')).toBeGreaterThan(0.2);
    expect(await share('search_log', 'created_at')).toBeGreaterThan(0.4);
    expect(
      await scalar(t, "SELECT count(*) FROM videos WHERE created_at < $1::timestamptz - interval '50 days'", [now]),
    ).toBeGreaterThan(0);
    for (const [table, column] of [
      ['videos', 'created_at'],
      ['likes', 'created_at'],
      ['comments', 'created_at'],
      ['follows', 'created_at'],
      ['search_log', 'created_at'],
      ['watch_history', 'watched_at'],
    ]) {
      expect(await scalar(t, `SELECT count(*) FROM ${table} WHERE ${column} > $1`, [now])).toBe(0);
    }
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM likes l JOIN videos v ON v.id = l.video_id WHERE l.created_at < v.created_at',
      ),
    ).toBe(0);
    expect(
      await scalar(
        t,
        'SELECT count(*) FROM comments r JOIN comments p ON p.id = r.parent_id WHERE r.created_at < p.created_at OR p.parent_id IS NOT NULL',
      ),
    ).toBe(0);
  });

  it('uses the media of the manifest, preferring the video channel', async () => {
    const manifest = loadManifest();
    const clips = new Map(manifest.clips.map((c) => [c.video, c]));
    const { rows } = await t.pool.query('SELECT id, media, poster, duration_ms, channel_id FROM videos');
    let sameChannel = 0;
    for (const row of rows) {
      const clip = clips.get(row.media);
      expect(clip, row.media).toBeDefined();
      // Posters are the video's own (its title on it), not the shared clip's frame.
      expect(row.poster).toBe(posterKey(row.id));
      expect(row.duration_ms).toBe(clip!.durationMs);
      if (clip!.channel === row.channel_id) sameChannel++;
    }
    expect(sameChannel / rows.length).toBeGreaterThan(0.8);
    const users = await t.pool.query('SELECT id, avatar FROM users');
    for (const u of users.rows) expect(u.avatar).toBe(avatarKey(u.id));
    // The manifest's paths are relative to public/media beside it.
    const mediaRoot = path.join(path.dirname(manifestPath()), '..', 'public', 'media');
    if (existsSync(mediaRoot))
      for (const clip of manifest.clips) expect(existsSync(path.join(mediaRoot, clip.video))).toBe(true);
  });

  it('indexes titles, hashtags and nicknames as search tokens', async () => {
    const { rows } = await t.pool.query(
      'SELECT v."desc", u.nickname, v.search_tokens FROM videos v JOIN users u ON u.id = v.author_id ORDER BY v.id LIMIT 50',
    );
    for (const row of rows) expect(row.search_tokens).toEqual(tokenize(`${row.desc} ${row.nickname}`));
    const hits = await scalar(t, "SELECT count(*) FROM videos WHERE search_tokens @> ARRAY['美食']");
    expect(hits).toBeGreaterThan(10);
    expect(await scalar(t, 'SELECT count(*) FROM videos WHERE "desc" !~ \'#\'')).toBe(0);
  });
});
