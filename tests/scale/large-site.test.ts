/**
 * The reads on a generated site of 100,000 videos (tests/setup/large-db.ts): each hot read's statements use their
 * indexes (no sequential scan of videos, likes, comments, watch history or users), keyset paging neither repeats nor skips
 * while others write, the stored orderings and 热度 equal their definitions, and a member's feed still follows their
 * affinity as it does on the seed.
 */
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../setup/test-db.ts';
import { largeDb, largeSize } from '../setup/large-db.ts';
import { connect, useDb } from '../../src/server/db/client.ts';
import { comments, likes, users, videos } from '../../src/server/db/schema.ts';
import { listChannels } from '../../src/server/services/channels.ts';
import { list as listComments, replies as listReplies } from '../../src/server/services/comments.ts';
import { creatorStats } from '../../src/server/services/creator-stats.ts';
import { listConversations } from '../../src/server/services/messages.ts';
import { listNotifications, unreadCount } from '../../src/server/services/notifications.ts';
import { expireHeat, HEAT } from '../../src/server/services/rankings.ts';
import { searchVideos } from '../../src/server/services/search.ts';
import { listWorks } from '../../src/server/services/studio.ts';
import { MAX_SUGGESTIONS, NAME_CANDIDATES, suggestByPrefix } from '../../src/server/services/suggest.ts';
import * as v from '../../src/server/services/videos.ts';

/** Relations that grow with the site: a hot read never scans them whole. */
const GROWING = new Set(['videos', 'likes', 'comments', 'watch_history', 'users']);

let large: TestDb;
beforeAll(async () => {
  large = await largeDb();
}, 900_000);
afterAll(() => large?.close());

interface Recorded {
  text: string;
  values: unknown[];
}

/** The statements `fn` sends through `pool` (plain reads: a transaction's are sent by a checked-out client). */
async function recorded(pool: pg.Pool, fn: () => Promise<unknown>): Promise<Recorded[]> {
  const seen: Recorded[] = [];
  const query = pool.query;
  (pool as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    // drizzle passes the values beside the config, not in it.
    const values = Array.isArray(rest[0]) ? (rest[0] as unknown[]) : [];
    if (config && typeof config === 'object' && 'text' in config) {
      const c = config as { text: string; values?: unknown[] };
      seen.push({ text: c.text, values: c.values ?? values });
    } else if (typeof config === 'string') {
      seen.push({ text: config, values });
    }
    return (query as (...args: unknown[]) => unknown).call(pool, config, ...rest);
  };
  try {
    await fn();
  } finally {
    (pool as { query: unknown }).query = query;
  }
  return seen;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** A plan's nodes, the root first. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

function seqScans(node: PlanNode, out: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && GROWING.has(node['Relation Name']))
    out.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, out);
  return out;
}

/** Fixed subjects of the large site, found once. */
async function subjects(db: TestDb['db']) {
  const num = async (q: ReturnType<typeof sql>) => Number(Object.values((await db.execute(q)).rows[0]!)[0]);
  const listed = sql`deleted_at is null and status = 'published' and visibility = 'public'`;
  return {
    longHistory: await num(sql`select id from users order by favoriting_count desc, id limit 1`),
    manyFollows: await num(sql`select id from users order by following_count desc, id limit 1`),
    popular: await num(sql`select id from videos where ${listed} order by digg_count desc, id limit 1`),
    commented: await num(sql`select id from videos where ${listed} order by comment_count desc, id limit 1`),
    thread: await num(
      sql`select id from comments where parent_id is null and deleted_at is null order by reply_count desc limit 1`,
    ),
    creator: await num(sql`select id from users order by aweme_count desc, id limit 1`),
    noticed: await num(sql`select user_id from notifications group by user_id order by count(*) desc limit 1`),
    talker: await num(sql`select user_a from conversations group by user_a order by count(*) desc limit 1`),
  };
}

/** Pages a list to its end (or `pages` pages), collecting ids; `between` runs after each page. */
async function walk(
  fetch: (cursor: string) => Promise<{ items: { id: number }[]; cursor: string; hasMore: boolean }>,
  pages: number,
  between: (k: number) => Promise<void> = async () => {},
): Promise<number[]> {
  const ids: number[] = [];
  let cursor = '0';
  for (let k = 0; k < pages; k++) {
    const page = await fetch(cursor);
    ids.push(...page.items.map((x) => x.id));
    if (!page.hasMore) break;
    cursor = page.cursor;
    await between(k);
  }
  return ids;
}

describe('a site of 100,000 videos', () => {
  it('has what the tests ask of it', async () => {
    const { rows } = await large.db.execute<{ videos: number; likes: number; comments: number }>(sql`
      select (select count(*) from videos)::int as videos, (select count(*) from likes)::int as likes,
        (select count(*) from comments)::int as comments`);
    const size = largeSize();
    expect(rows[0]!.videos).toBeGreaterThanOrEqual(100_000);
    // Pairs drawn twice are stored once: a few likes fewer than drawn.
    expect(rows[0]!.likes).toBeGreaterThan(size.likes * 0.95);
    expect(rows[0]!.comments).toBeGreaterThanOrEqual(size.comments);
  });

  // Before the tests below write rows behind the services' back.
  it('stored counters are the rows behind them, for the busiest works and users', async () => {
    const { rows: works } = await large.db.execute<{ bad: number }>(sql`
      select count(*)::int as bad from (
        select v.id from videos v where v.deleted_at is null order by v.digg_count desc limit 300) t
      join videos v on v.id = t.id
      where v.digg_count <> (select count(*) from likes l where l.video_id = v.id)
         or v.collect_count <> (select count(*) from collects c where c.video_id = v.id)
         or v.comment_count <> (select count(*) from comments c where c.video_id = v.id and c.deleted_at is null)`);
    expect(works[0]!.bad).toBe(0);
    const { rows: people } = await large.db.execute<{ bad: number }>(sql`
      select count(*)::int as bad from (select id from users order by follower_count desc limit 300) t
      join users u on u.id = t.id
      where u.follower_count <> (select count(*) from follows f where f.followee_id = u.id)
         or u.following_count <> (select count(*) from follows f where f.follower_id = u.id)
         or u.favoriting_count <> (select count(*) from likes l join videos v on v.id = l.video_id
                                   where l.user_id = u.id and v.deleted_at is null)`);
    expect(people[0]!.bad).toBe(0);
  });

  it('reads every hot list down an index: no sequential scan of videos, likes, comments, watch history or users', async () => {
    const s = await subjects(large.db);
    const discover20 = (await walk((cursor) => v.discover({ cursor, count: 24 }), 20)).length;
    expect(discover20).toBe(20 * 24);
    let deep = '0';
    for (let k = 0; k < 20; k++) deep = (await v.discover({ cursor: deep, count: 24 })).cursor;
    let deepComments = '0';
    for (let k = 0; k < 5; k++)
      deepComments = (await listComments(s.commented, { cursor: deepComments, count: 20 }, null)).cursor;
    const reads: [string, () => Promise<unknown>][] = [
      ['recommend, visitor', () => v.recommend(null, { count: 10 })],
      ['recommend, member with a long history', () => v.recommend(s.longHistory, { count: 10 })],
      ['discover, page 1', () => v.discover({ count: 24 })],
      ['discover, page 21', () => v.discover({ cursor: deep, count: 24 })],
      ['channel, page 1', () => v.byChannel(300204, { count: 24 })],
      ['hot', () => v.hot({ count: 20 })],
      ['related', () => v.related(s.popular, { count: 12 })],
      ['follow feed', () => v.followFeed(s.manyFollows, { count: 24 })],
      ['friend feed', () => v.friendFeed(s.manyFollows, { count: 24 })],
      ['video detail', () => v.getDetail(s.popular, s.longHistory)],
      ['comments', () => listComments(s.commented, { count: 20 }, null)],
      ['comments, page 6', () => listComments(s.commented, { cursor: deepComments, count: 20 }, s.longHistory)],
      ['replies', () => listReplies(s.thread, { count: 10 }, null)],
      ['profile 作品', () => v.profileTab(s.creator, 'post', { count: 24 }, null)],
      ['profile 喜欢', () => v.profileTab(s.longHistory, 'like', { count: 24 }, null)],
      ['profile 收藏', () => v.profileTab(s.longHistory, 'favorite_collection', { count: 24 }, s.longHistory)],
      ['profile 观看历史', () => v.profileTab(s.longHistory, 'record', { count: 24 }, s.longHistory)],
      ['notifications', () => listNotifications(s.noticed, { count: 20 })],
      ['notification badge', () => unreadCount(s.noticed)],
      ['私信 list', () => listConversations(s.talker, { count: 20 })],
      ['studio works', () => listWorks(s.creator, { count: 12 })],
      ['作品数据', () => creatorStats(s.creator, 30)],
      ['channel list', () => listChannels()],
      // A common term and a one-character prefix (美 is in one work in seven): the search box's reads per keystroke.
      ['search videos', () => searchVideos('美食', { count: 20 })],
      ['search suggestions', () => suggestByPrefix('美')],
    ];
    // The hashtags' use counts and 热搜 are per-process lists refreshed in the background, not a keystroke's reads.
    await suggestByPrefix('美');
    const problems: string[] = [];
    const client = await large.pool.connect();
    try {
      for (const [name, read] of reads) {
        const statements = await recorded(large.pool, read);
        expect(statements.length, name).toBeGreaterThan(0);
        for (const st of statements) {
          const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
            text: `EXPLAIN (FORMAT JSON) ${st.text}`,
            values: st.values,
          });
          const scanned = seqScans(rows[0]!['QUERY PLAN'][0].Plan);
          if (scanned.length) problems.push(`${name}: seq scan of ${scanned.join(', ')} in ${st.text.slice(0, 160)}`);
        }
      }
    } finally {
      client.release();
    }
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('search suggestions', () => {
  it('offer the people a common character names from a bounded read, not from every holder sorted by followers', async () => {
    const { rows: held } = await large.pool.query<{ n: number }>(
      `select count(*)::int as n from users where search_tokens @> '{美}'`,
    );
    // The case is real: more users hold 美 than the read may look at.
    expect(held[0]!.n).toBeGreaterThan(2 * (NAME_CANDIDATES + MAX_SUGGESTIONS));
    await suggestByPrefix('美');
    const people = (await recorded(large.pool, () => suggestByPrefix('美'))).filter((st) =>
      /from "users"/.test(st.text),
    );
    expect(people).toHaveLength(1);
    const { rows } = await large.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      text: `EXPLAIN (ANALYZE, FORMAT JSON) ${people[0]!.text}`,
      values: people[0]!.values,
    });
    expect(usersRead(rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThanOrEqual(NAME_CANDIDATES + MAX_SUGGESTIONS);
  }, 60_000);
});

/** Rows of users a plan read (returned or filtered out), over every loop of every node that reads the table. */
function usersRead(node: PlanNode): number {
  const n = node as PlanNode & Record<string, number | undefined>;
  const own =
    node['Relation Name'] === 'users'
      ? ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
        (n['Actual Loops'] ?? 1)
      : 0;
  return (node.Plans ?? []).reduce((sum, child) => sum + usersRead(child), own);
}

describe('the lists every visit reads keep one plan', () => {
  /**
   * A named statement whose generic plan PostgreSQL judges dearer than planning afresh is planned at every call: 2 to
   * 3 ms on the reads below at a million videos, as long as running them. A LIMIT sent as a parameter did that (its
   * size guessed at a tenth of the table), and so did a channel's id. The first five calls are always planned for
   * their values; after them, each statement must run on its one plan.
   */
  it('首页, a channel, 热点, the visitor’s and a member’s feed, 相关推荐 and 作品数据 are not planned again at each call', async () => {
    const s = await subjects(large.db);
    const single = connect(large.url, 1);
    single.pool.on('error', () => {});
    useDb(single.db);
    try {
      const reads: [string, () => Promise<unknown>][] = [
        ['首页', () => v.discover({ count: 24 })],
        ['channel', () => v.byChannel(300204, { count: 24 })],
        ['热点', () => v.hot({ count: 20 })],
        ['recommend, visitor', () => v.recommend(null, { count: 10 })],
        ['recommend, member', () => v.recommend(s.longHistory, { count: 10 })],
        ['related', () => v.related(s.popular, { count: 12 })],
        ['作品数据', () => creatorStats(s.creator, 30)],
      ];
      const replanned: string[] = [];
      for (const [name, read] of reads) {
        // The statements of a call after the first eight (one the read makes once, such as the member's first
        // lookup of the works their signals name, stays unnamed).
        for (let k = 0; k < 8; k++) await read();
        const texts = new Set((await recorded(single.pool, read)).map((st) => st.text));
        const { rows } = await single.pool.query<{ statement: string; generic: number; custom: number }>(
          'select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements',
        );
        for (const text of texts) {
          const st = rows.find((r) => r.statement === text);
          if (!st) replanned.push(`${name}: not prepared: ${text.slice(0, 120)}`);
          else if (st.generic === 0) replanned.push(`${name}: ${st.custom} custom plans: ${text.slice(0, 160)}`);
        }
      }
      expect(replanned).toEqual([]);
    } finally {
      useDb(large.db);
      await single.pool.end();
    }
  }, 120_000);
});

describe('keyset paging while others write', () => {
  /**
   * Walks a list twice, the second time writing between pages: the second walk shows every item of the first that
   * the writes left in place, once each and in the same order; what the writes removed is shown at most once.
   */
  function expectSteady(first: number[], second: number[], removed: Set<number>) {
    expect(new Set(second).size).toBe(second.length);
    const before = new Set(first);
    expect(second.filter((id) => before.has(id))).toEqual(
      first.filter((id) => !removed.has(id) || second.includes(id)),
    );
  }

  it('comments: new and deleted comments between pages neither repeat nor skip the others', async () => {
    const s = await subjects(large.db);
    const fetch = (cursor: string) => listComments(s.commented, { cursor, count: 50 }, null);
    const first = await walk(fetch, 10_000);
    expect(first.length).toBeGreaterThan(200);
    const [writer] = await large.db.select({ id: users.id }).from(users).orderBy(users.id).limit(1);
    const removed = new Set<number>();
    const second = await walk(fetch, 10_000, async (k) => {
      // A new comment lands at the top of its likes (none); an old one, shown or not, goes.
      await large.db.insert(comments).values({ videoId: s.commented, userId: writer!.id, text: `新评论 ${k}` });
      const victim = first[(k * 37 + 11) % first.length]!;
      await large.db.update(comments).set({ deletedAt: new Date() }).where(eq(comments.id, victim));
      removed.add(victim);
    });
    expectSteady(first, second, removed);
  }, 120_000);

  it('喜欢: likes and unlikes between pages neither repeat nor skip the rest of the list', async () => {
    const s = await subjects(large.db);
    const fetch = (cursor: string) => v.profileTab(s.longHistory, 'like', { cursor, count: 30 }, s.longHistory);
    const first = await walk(fetch, 10_000);
    expect(first.length).toBeGreaterThan(100);
    const fresh = await large.db
      .select({ id: videos.id })
      .from(videos)
      .where(
        sql`${videos.deletedAt} is null and ${videos.visibility} = 'public' and ${videos.id} not in
          (select video_id from likes where user_id = ${s.longHistory})`,
      )
      .limit(200);
    const removed = new Set<number>();
    const second = await walk(fetch, 10_000, async (k) => {
      await large.db
        .insert(likes)
        .values({ userId: s.longHistory, targetId: fresh[k % fresh.length]!.id })
        .onConflictDoNothing();
      const victim = first[(k * 13 + 5) % first.length]!;
      await large.db.delete(likes).where(and(eq(likes.userId, s.longHistory), eq(likes.targetId, victim)));
      removed.add(victim);
    });
    expectSteady(first, second, removed);
  }, 120_000);

  it('首页: works published between pages shift nothing', async () => {
    const fetch = (cursor: string) => v.discover({ cursor, count: 24 });
    const first = await walk(fetch, 30);
    const [author] = await large.db.select({ id: users.id }).from(users).orderBy(users.id).limit(1);
    const [clip] = await large.db.select().from(videos).limit(1);
    const second = await walk(fetch, 30, async (k) => {
      // A new work with shares ranks somewhere in the list: above the cursor, later pages simply do not hold it.
      await large.db.insert(videos).values({
        authorId: author!.id,
        channelId: clip!.channelId,
        desc: `新作品 ${k}`,
        media: clip!.media,
        poster: clip!.poster,
        durationMs: clip!.durationMs,
        width: clip!.width,
        height: clip!.height,
        sizeBytes: clip!.sizeBytes,
        shareCount: 1 + k,
      });
    });
    const old = second.filter((id) => first.includes(id));
    expectSteady(first.slice(0, old.length), second, new Set());
    expect(old).toEqual(first.slice(0, old.length));
  }, 120_000);
});

describe('stored orderings and 热度 against their definitions', () => {
  it('the popular order is engagement × freshness computed over every work', async () => {
    const { rows } = await large.db.execute<{ id: number; e: number }>(sql`
      select id, (digg_count + 2 * comment_count + 3 * collect_count + share_count)::float8 / (play_count + 50)
        * exp(-extract(epoch from (now() - created_at))::float8 / 259200.0) as e
      from videos where deleted_at is null and status = 'published' and visibility = 'public'
      order by e desc, id desc limit 200`);
    const shown = await walk((cursor) => v.discover({ cursor, count: 50 }), 4);
    const truth = new Map(rows.map((r) => [Number(r.id), Number(r.e)]));
    expect(shown).toHaveLength(200);
    // The stored score is the logarithm of the same number: two works can only trade places when equal to 1e-12.
    for (const [i, r] of rows.entries()) {
      if (shown[i] !== Number(r.id))
        expect(Math.abs((truth.get(shown[i]!) ?? 0) - Number(r.e))).toBeLessThan(1e-12 * Number(r.e));
    }
  }, 120_000);

  it('热度 is the definition over the raw rows: every shown heat, exactly, after the window has moved', async () => {
    await expireHeat();
    const page = await v.hot({ count: 50 });
    expect(page.items.length).toBe(50);
    const ids = page.items.map((x) => x.id);
    const { rows } = await large.db.execute<{ id: number; heat: number }>(sql`
      with window_start as (
        select timestamptz '2000-01-01 00:00:00+00' + floor(extract(epoch from now() - interval '${sql.raw(String(HEAT.windowDays))} days'
          - timestamptz '2000-01-01 00:00:00+00') / 3600) * interval '1 hour' as t)
      select a.video_id as id, sum(a.w * exp(-extract(epoch from now() - a.created_at)::float8 / ${HEAT.decaySeconds}::float8)) as heat
      from (
        select video_id, created_at, ${HEAT.like}::float8 as w from likes
        union all select video_id, created_at, ${HEAT.comment} from comments where deleted_at is null
        union all select video_id, created_at, ${HEAT.collect} from collects
      ) a, window_start
      where a.created_at >= window_start.t and a.video_id = any (${`{${ids.join(',')}}`}::int[])
      group by a.video_id`);
    const truth = new Map(rows.map((r) => [Number(r.id), Math.ceil(Number(r.heat) - 1e-9)]));
    for (const x of page.items) expect(x.heat, `video ${x.id}`).toBe(truth.get(x.id));
    for (let i = 1; i < page.items.length; i++)
      expect(page.items[i - 1]!.heat).toBeGreaterThanOrEqual(page.items[i]!.heat);
  }, 120_000);

  it('the channels’ counts are the works everyone may see in each', async () => {
    const { rows } = await large.db.execute<{ channel_id: number; n: number }>(sql`
      select channel_id, count(*)::int as n from videos
      where deleted_at is null and status = 'published' and visibility = 'public' group by channel_id`);
    const counts = new Map((await listChannels()).map((c) => [c.id, c.videoCount]));
    for (const r of rows) expect(counts.get(Number(r.channel_id))).toBe(Number(r.n));
  });
});

describe('the personal feed from bounded candidates', () => {
  /** The share of `channel` among the first 50 items of a new member's feed after they liked 20 of its works. */
  async function affinityShare(t: TestDb, channel: number): Promise<number> {
    useDb(t.db);
    const [member] = await t.db
      .insert(users)
      .values({ secUid: `affinity-${Date.now()}-${t.name}`, nickname: '偏爱者', avatar: 'seed/avatars/1.svg' })
      .returning({ id: users.id });
    const inChannel = await t.db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`${videos.channelId} = ${channel} and ${videos.deletedAt} is null and ${videos.visibility} = 'public'`)
      .orderBy(videos.id)
      .limit(20);
    await t.db.insert(likes).values(inChannel.map((x) => ({ userId: member!.id, targetId: x.id })));
    const items = [];
    let cursor = '0';
    while (items.length < 50) {
      const page = await v.recommend(member!.id, { cursor, count: 25 });
      items.push(...page.items);
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    const first = items.slice(0, 50);
    for (const x of first) expect(x.reason.pool).toBeTruthy();
    return first.filter((x) => x.channelId === channel).length / first.length;
  }

  it('follows the member’s affinity at least as much as on the seed', async () => {
    const seedDb = await freshDb();
    try {
      const onSeed = await affinityShare(seedDb, 300205);
      const onLarge = await affinityShare(large, 300205);
      expect(onSeed).toBeGreaterThan(1 / 8);
      expect(onLarge).toBeGreaterThanOrEqual(onSeed);
    } finally {
      useDb(large.db);
      await seedDb.close();
    }
  }, 120_000);

  /** The plan's nodes of the one statement matching `text` that `member`'s first feed page sends, root first. */
  async function feedPlan(member: number, text: RegExp): Promise<PlanNode[]> {
    const statements = await recorded(large.pool, () => v.recommend(member, { count: 10 }));
    const matching = statements.filter((st) => text.test(st.text));
    expect(matching).toHaveLength(1);
    const { rows } = await large.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      text: `EXPLAIN (FORMAT JSON) ${matching[0]!.text}`,
      values: matching[0]!.values,
    });
    return nodes(rows[0]!['QUERY PLAN'][0].Plan);
  }

  it('reads the works a long history names from one narrow index, without a visit to each work’s row', async () => {
    // A member the other tests do not read: the process keeps the works' facts it has read.
    const [member] = (
      await large.db.execute<{ id: number }>(
        sql`select id from users order by favoriting_count desc, id offset 2 limit 1`,
      )
    ).rows;
    const plan = await feedPlan(Number(member!.id), /from videos where id = any/);
    // The works are read by one scan (under the aggregate that lists them), of the narrow index alone.
    const scans = plan.filter((n) => / Scan$/.test(n['Node Type']));
    expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Only Scan', 'videos_facts_idx']]);
  }, 60_000);

  it('ranks the followed and favourite authors’ newest works from one index, without a visit to each work’s row', async () => {
    const [member] = (
      await large.db.execute<{ id: number }>(
        sql`select id from users order by following_count desc, id offset 1 limit 1`,
      )
    ).rows;
    const plan = await feedPlan(Number(member!.id), /with picks/);
    const works = plan.filter((n) => n['Relation Name'] === 'videos');
    expect(works.length).toBeGreaterThan(0);
    expect(works.map((n) => [n['Node Type'], n['Index Name']])).toEqual(
      works.map(() => ['Index Only Scan', 'videos_author_recent_idx']),
    );
  }, 60_000);

  it('says why each pick is there: its pool and the signals that weighed on it', async () => {
    const s = await subjects(large.db);
    const page = await v.recommend(s.manyFollows, { count: 30 });
    const pools = new Set(page.items.map((x) => x.reason.pool));
    expect(pools.size).toBeGreaterThan(1);
    for (const x of page.items) {
      expect(x.reason.signals.length).toBeGreaterThan(0);
      if (x.reason.pool === 'follow') expect(x.reason.signals).toContain('follow');
    }
  }, 60_000);
});
