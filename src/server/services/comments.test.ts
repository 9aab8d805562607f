import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { comments } from '../db/schema.ts';
import { list, replies } from './comments.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

describe('comments service', () => {
  it('pages top-level comments of a video, most liked first, without repeats', async () => {
    const [busy] = await t.db
      .select({ videoId: comments.videoId, n: sql<number>`count(*)::int` })
      .from(comments)
      .where(and(isNull(comments.parentId), isNull(comments.deletedAt)))
      .groupBy(comments.videoId)
      .orderBy(sql`count(*) desc`)
      .limit(1);
    const seen: number[] = [];
    let cursor = '0';
    for (;;) {
      const page = await list(busy!.videoId, { cursor, count: 3 }, null);
      seen.push(...page.items.map((c) => c.id));
      for (let i = 1; i < page.items.length; i++)
        expect(page.items[i - 1]!.diggCount).toBeGreaterThanOrEqual(page.items[i]!.diggCount);
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    expect(seen.length).toBe(busy!.n);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('lists the replies of a thread with whom they answer', async () => {
    const [root] = await t.db
      .select()
      .from(comments)
      .where(sql`${comments.replyCount} > 0`)
      .limit(1);
    const page = await replies(root!.id, { count: 50 }, null);
    expect(page.items.length).toBe(root!.replyCount);
    for (const r of page.items) {
      expect(r.parentId).toBe(root!.id);
      expect(r.replyTo?.nickname).toBeTruthy();
    }
    const [parent] = await list(root!.videoId, { count: 50 }, null).then((p) =>
      p.items.filter((c) => c.id === root!.id),
    );
    expect(parent?.replyCount).toBe(root!.replyCount);
    const [deleted] = await t.db.select().from(comments).where(eq(comments.id, root!.id));
    expect(deleted!.deletedAt).toBeNull();
  });

  it('hides the comments and replies of a user the viewer blocked from that viewer only', async () => {
    // A thread whose root and one reply are by different users, so each hiding shows on its own.
    const { rows } = await t.db.execute<{
      root: number;
      video: number;
      rooter: number;
      replier: number;
      viewer: number;
      other: number;
    }>(sql`
      select p.id as root, p.video_id as video, p.user_id as rooter, r.user_id as replier,
        (select min(u.id) from users u where u.id not in (p.user_id, r.user_id)) as viewer,
        (select max(u.id) from users u where u.id not in (p.user_id, r.user_id)) as other
      from comments p join comments r on r.parent_id = p.id and r.user_id <> p.user_id and r.deleted_at is null
      where p.deleted_at is null and p.parent_id is null order by p.id limit 1`);
    const { root, video, rooter, replier, viewer, other } = rows[0]!;
    const ids = async (p: Promise<{ items: { id: number; user: { id: number } }[] }>) => (await p).items;
    const roots = (who: number | null) => ids(list(video, { count: 50 }, who));
    const thread = (who: number | null) => ids(replies(root, { count: 50 }, who));

    expect((await roots(viewer)).some((c) => c.id === root)).toBe(true);
    await t.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${viewer}, ${rooter}), (${viewer}, ${replier})`,
    );
    try {
      expect((await roots(viewer)).some((c) => c.user.id === rooter)).toBe(false);
      expect((await thread(viewer)).some((c) => c.user.id === replier)).toBe(false);
      // Everyone else, signed in or not, still sees them.
      for (const who of [other, null]) {
        expect((await roots(who)).some((c) => c.id === root)).toBe(true);
        expect((await thread(who)).some((c) => c.user.id === replier)).toBe(true);
      }
      // Blocking is one-way: the blocked users still see the blocker's comments.
      const [mine] = await t.db
        .execute<{ id: number; video_id: number }>(
          sql`select id, video_id from comments where user_id = ${viewer} and parent_id is null and deleted_at is null limit 1`,
        )
        .then((r) => r.rows);
      if (mine)
        expect((await ids(list(mine.video_id, { count: 50 }, rooter))).some((c) => c.id === mine.id)).toBe(true);
    } finally {
      await t.db.execute(sql`delete from blocks where blocker_id = ${viewer}`);
    }
  });
});
