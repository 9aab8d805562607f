import { eq, sql } from 'drizzle-orm';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { likes, videos } from '../db/schema.ts';
import { selectCards } from './video-cards.ts';
import { byChannel, byIds, profileTab } from './videos.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

/** A live video somebody liked, with that liker. */
async function likedVideo() {
  const [row] = await db
    .select({ id: videos.id, channelId: videos.channelId, authorId: videos.authorId, liker: likes.userId })
    .from(videos)
    .innerJoin(likes, eq(likes.targetId, videos.id))
    .where(sql`${videos.deletedAt} is null`)
    .limit(1);
  return row!;
}

describe('selectCards', () => {
  it("ANDs the caller's condition with the rule: a deleted video stays out of every list that names it", async () => {
    const v = await likedVideo();
    const ids = async () => ({
      direct: (await selectCards(null, eq(videos.id, v.id))).map((c) => c.id),
      byIds: (await byIds([v.id], v.authorId)).map((c) => c.id),
      channel: (await byChannel(v.channelId, { count: 50 })).items.map((c) => c.id),
      posts: (await profileTab(v.authorId, 'post', { count: 50 }, v.authorId)).items.map((c) => c.id),
      likes: (await profileTab(v.liker, 'like', { count: 50 }, v.liker)).items.map((c) => c.id),
    });

    const before = await ids();
    expect(before.direct).toEqual([v.id]);
    expect(before.byIds).toEqual([v.id]);
    expect(before.posts).toContain(v.id);
    expect(before.likes).toContain(v.id);

    await db.update(videos).set({ deletedAt: new Date() }).where(eq(videos.id, v.id));
    const after = await ids();
    for (const [list, found] of Object.entries(after)) expect(found, list).not.toContain(v.id);
  });

  it('has no second where, not even after a join (drizzle would replace the rule with it)', () => {
    // Checked by `npm run typecheck`; at run time these only build queries.
    expectTypeOf(selectCards(null)).not.toHaveProperty('where');
    expectTypeOf(selectCards(null).innerJoin(likes, eq(likes.targetId, videos.id))).not.toHaveProperty('where');
  });
});
