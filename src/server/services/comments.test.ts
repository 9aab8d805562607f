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
    let cursor = 0;
    for (;;) {
      const page = await list(busy!.videoId, { cursor, count: 3 });
      seen.push(...page.items.map((c) => c.id));
      for (let i = 1; i < page.items.length; i++) expect(page.items[i - 1]!.diggCount).toBeGreaterThanOrEqual(page.items[i]!.diggCount);
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    expect(seen.length).toBe(busy!.n);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('lists the replies of a thread with whom they answer', async () => {
    const [root] = await t.db.select().from(comments).where(sql`${comments.replyCount} > 0`).limit(1);
    const page = await replies(root!.id, { count: 50 });
    expect(page.items.length).toBe(root!.replyCount);
    for (const r of page.items) {
      expect(r.parentId).toBe(root!.id);
      expect(r.replyTo?.nickname).toBeTruthy();
    }
    const [parent] = await list(root!.videoId, { count: 50 }).then((p) => p.items.filter((c) => c.id === root!.id));
    expect(parent?.replyCount).toBe(root!.replyCount);
    const [deleted] = await t.db.select().from(comments).where(eq(comments.id, root!.id));
    expect(deleted!.deletedAt).toBeNull();
  });
});
