import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { RANK } from './feed-ranker.ts';
import { CHANNEL_IDS } from './channel-ids.ts';
import { candidatesQuery, gatherCandidates, SHARED_POOLS, SIGNAL_ROWS, viewerSignals } from './feed-candidates.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

type Weights = Record<string, number>;

/** The signals' definition over the raw rows, in SQL: each kind of signal as a weight per channel ('c') and author ('a'). */
async function definition(viewer: number): Promise<{ weights: Weights; disliked: Weights }> {
  const { rows } = await t.pool.query<{ k: string; id: number; w: number }>(
    `with sig as (
       select s.video_id, sum(s.w) as w, max(s.progress_ms) as progress_ms from (
         (select video_id, $2::float8 as w, null::int as progress_ms from likes where user_id = $1
           order by created_at desc limit $5)
         union all
         (select video_id, $3::float8, null::int from collects where user_id = $1 order by created_at desc limit $6)
         union all
         (select video_id, 0::float8, progress_ms from watch_history where user_id = $1 order by watched_at desc limit $7)
       ) s group by s.video_id),
     aff as (
       select v.channel_id, v.author_id,
         sig.w + $4 * least(coalesce(sig.progress_ms::float8 / greatest(v.duration_ms, 1), 0), 1.0) as w
       from sig join videos v on v.id = sig.video_id),
     ni as (select v.channel_id, v.author_id from not_interested n join videos v on v.id = n.video_id where n.user_id = $1)
     select 'c' || channel_id as k, sum(w)::float8 as w from aff group by channel_id
     union all select 'a' || author_id, sum(w)::float8 from aff group by author_id
     union all select 'nc' || channel_id, count(*)::float8 from ni group by channel_id
     union all select 'na' || author_id, count(*)::float8 from ni group by author_id`,
    [viewer, RANK.like, RANK.collect, RANK.watch, SIGNAL_ROWS.likes, SIGNAL_ROWS.collects, SIGNAL_ROWS.watches],
  );
  const weights: Weights = {};
  const disliked: Weights = {};
  for (const r of rows) (r.k.startsWith('n') ? disliked : weights)[r.k.replace(/^n/, '')] = Number(r.w);
  return { weights, disliked };
}

function flatten(s: Awaited<ReturnType<typeof viewerSignals>>) {
  const weights: Weights = {};
  const disliked: Weights = {};
  for (const [k, w] of s.channel) weights[`c${k}`] = w;
  for (const [k, w] of s.author) weights[`a${k}`] = w;
  for (const [k, w] of s.dislikedChannel) disliked[`c${k}`] = w;
  for (const [k, w] of s.dislikedAuthor) disliked[`a${k}`] = w;
  return { weights, disliked };
}

function expectClose(actual: Weights, expected: Weights) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, w] of Object.entries(expected)) expect(actual[k], k).toBeCloseTo(w, 9);
}

describe('a member’s signals', () => {
  it('weigh their likes, collects, share watched and 不感兴趣 by channel and author, as the raw rows say', async () => {
    const { rows: members } = await t.pool.query<{ id: number }>(
      `select id from users where id in (select user_id from likes) or id in (select user_id from watch_history)
       order by id limit 12`,
    );
    expect(members.length).toBeGreaterThan(3);
    // One member with 不感兴趣 marks, one work both liked and watched halfway, one watched past its end, one both liked
    // and marked 不感兴趣.
    const [a, b] = [members[0]!.id, members[1]!.id];
    await t.db.execute(sql`insert into not_interested (user_id, video_id)
      select ${a}, id from videos order by id desc limit 4 on conflict do nothing`);
    await t.db.execute(sql`insert into likes (user_id, video_id) select ${b}, id from videos order by id limit 2
      on conflict do nothing`);
    await t.db.execute(sql`insert into watch_history (user_id, video_id, progress_ms)
      select ${b}, id, case when id = (select min(id) from videos) then duration_ms / 2 else duration_ms * 3 end
      from videos order by id limit 3
      on conflict (user_id, video_id) do update set progress_ms = excluded.progress_ms`);
    await t.db.execute(sql`insert into not_interested (user_id, video_id)
      select ${b}, id from videos order by id offset 1 limit 1 on conflict do nothing`);
    for (const { id } of members) {
      const got = flatten(await viewerSignals(id));
      const want = await definition(id);
      expectClose(got.weights, want.weights);
      expectClose(got.disliked, want.disliked);
    }
    const s = await viewerSignals(a);
    expect([...s.dislikedChannel.values()].reduce((x, y) => x + y, 0)).toBe(4);
    expect(s.total).toBeCloseTo(
      [...s.channel.values()].reduce((x, y) => x + y, 0),
      9,
    );
  });

  it('carry the works watched in the last days, with when, and not those watched before', async () => {
    const { rows } = await t.pool.query<{ id: number }>('select id from videos order by id limit 2');
    const [recent, old] = [rows[0]!.id, rows[1]!.id];
    const { rows: u } = await t.pool.query<{ id: number }>('select id from users order by id desc limit 1');
    const viewer = u[0]!.id;
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    await t.pool.query(
      `insert into watch_history (user_id, video_id, progress_ms, watched_at) values ($1, $2, 1000, $3), ($1, $4, 1000, $5)
       on conflict (user_id, video_id) do update set watched_at = excluded.watched_at`,
      [viewer, recent, at(3_600_000), old, at(RANK.watchedWithinMs + 3_600_000)],
    );
    const s = await viewerSignals(viewer, now);
    expect(s.watched.get(recent)).toBeCloseTo(now - 3_600_000, -1);
    expect(s.watched.has(old)).toBe(false);
  });
});

type CandidateRow = { id: number; pool: string; followed: boolean };
const key = (r: { id: number; pool: string; followed: boolean }) => `${r.pool}:${r.id}:${r.followed}`;
const rowKey = (r: CandidateRow) => key({ id: Number(r.id), pool: r.pool, followed: r.followed });

describe('window 0’s candidates', () => {
  it('are what the candidates query finds, for each viewer, though the shared pools are read once', async () => {
    const { rows: members } = await t.pool.query<{ id: number }>(
      `select id from users where id in (select follower_id from follows) or id in (select user_id from likes)
       order by id limit 8`,
    );
    const now = Date.now();
    for (const { id } of members) {
      const s = await viewerSignals(id, now);
      const got = await gatherCandidates(id, s, CHANNEL_IDS, now);
      const { rows } = await t.db.execute<CandidateRow>(candidatesQuery(id, s, CHANNEL_IDS, now));
      expect(got.map(key).sort(), `viewer ${id}`).toEqual(rows.map(rowKey).sort());
      expect(got.some((c) => c.pool === 'affinity')).toBe(s.channel.size > 0);
    }
  });

  it('leave out of the shared pools what a viewer never wants, and mark the works of authors they follow', async () => {
    const now = Date.now();
    const { rows: u } = await t.pool.query<{ id: number }>('select id from users order by id limit 1 offset 3');
    const viewer = Number(u[0]!.id);
    const follows = async () =>
      new Set(
        (
          await t.pool.query<{ id: number }>('select followee_id as id from follows where follower_id = $1', [viewer])
        ).rows.map((r) => Number(r.id)),
      );
    const already = await follows();
    const before = await gatherCandidates(viewer, await viewerSignals(viewer, now), CHANNEL_IDS, now);
    const popular = before.filter((c) => c.pool === 'popular' && c.authorId !== viewer && !already.has(c.authorId));
    const authors = [...new Set(popular.map((c) => c.authorId))];
    expect(authors.length).toBeGreaterThan(2);
    const [blocked, followed] = [authors[0]!, authors[1]!];
    const disliked = popular.find((c) => c.authorId !== blocked && c.authorId !== followed)!;
    await t.pool.query('insert into not_interested (user_id, video_id) values ($1, $2)', [viewer, disliked.id]);
    await t.pool.query('insert into follows (follower_id, followee_id) values ($1, $2)', [viewer, followed]);

    // 不感兴趣 alone: screened in memory against the marks the signals read.
    const marked = await viewerSignals(viewer, now);
    expect(marked.onlyDisliked?.has(disliked.id)).toBe(true);
    const lean = await gatherCandidates(viewer, marked, CHANNEL_IDS, now);
    expect(lean.map((c) => c.id)).not.toContain(disliked.id);
    expect(lean.some((c) => c.authorId === blocked)).toBe(true);
    const { rows: defined } = await t.db.execute<CandidateRow>(candidatesQuery(viewer, marked, CHANNEL_IDS, now));
    expect(lean.map(key).sort()).toEqual(defined.map(rowKey).sort());

    // And a block: screened by the statement.
    await t.pool.query('insert into blocks (blocker_id, blocked_id) values ($1, $2)', [viewer, blocked]);
    const s = await viewerSignals(viewer, now);
    expect(s.onlyDisliked).toBeUndefined();
    const got = await gatherCandidates(viewer, s, CHANNEL_IDS, now);
    expect(got.map((c) => c.id)).not.toContain(disliked.id);
    expect(got.filter((c) => c.authorId === blocked)).toEqual([]);
    const theirs = got.filter((c) => c.authorId === followed);
    expect(theirs.some((c) => c.pool === 'popular')).toBe(true);
    const following = await follows();
    for (const c of got) expect(c.followed, `work ${c.id}`).toBe(following.has(c.authorId));
    const { rows } = await t.db.execute<CandidateRow>(candidatesQuery(viewer, s, CHANNEL_IDS, now));
    expect(got.map(key).sort()).toEqual(rows.map(rowKey).sort());
  });

  it('take the shared pools at most SHARED_POOLS.ttlMs behind the works', async () => {
    const { rows: u } = await t.pool.query<{ id: number }>('select id from users order by id desc limit 1');
    const viewer = Number(u[0]!.id);
    // Past any read of the shared pools that earlier tests left, so the first call below reads them.
    const start = Date.now() + 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start);
      const s = await viewerSignals(viewer, start);
      const fresh = async () =>
        (await gatherCandidates(viewer, s, CHANNEL_IDS, start)).filter((c) => c.pool === 'fresh').map((c) => c.id);
      expect((await fresh()).length).toBeGreaterThan(0);
      const { rows } = await t.pool.query<{ id: number }>(
        `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, created_at)
         select author_id, channel_id, '刚发布的作品', media, poster, duration_ms, width, height, size_bytes, now() + interval '1 day'
         from videos where author_id <> $1 and deleted_at is null and status = 'published' and visibility = 'public'
         order by id limit 1 returning id`,
        [viewer],
      );
      const work = Number(rows[0]!.id);
      vi.setSystemTime(start + SHARED_POOLS.ttlMs - 1);
      expect(await fresh()).not.toContain(work);
      vi.setSystemTime(start + SHARED_POOLS.ttlMs);
      expect(await fresh()).toContain(work);
    } finally {
      vi.useRealTimers();
    }
  });
});
