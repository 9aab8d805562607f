import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { setVideoLike } from '../services/interactions.ts';
import { searchUsers, searchVideos } from '../services/search.ts';
import { mergeGinPending } from './gin-pending.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

/** Ids of what a search finds (first 50), in id order: the likes move works up the ranking. */
const found = async (term: string) => ({
  videos: (await searchVideos(term, { count: 50 })).items.map((v) => v.id).sort((a, b) => a - b),
  users: (await searchUsers(term, { count: 50 })).items.map((u) => u.id).sort((a, b) => a - b),
});

describe("merging the search indexes' pending entries", () => {
  it('merges what likes left pending, leaves nothing the second time, and searches find the same before and after', async () => {
    await mergeGinPending();
    const { rows } = await t.pool.query(
      `select v.id, split_part(v."desc", ' #', 1) as title from videos v
       where v.deleted_at is null and v.status = 'published' and v.visibility = 'public' order by v.id limit 12`,
    );
    const term = [...(rows[0].title as string)].slice(0, 2).join('');
    const fans = (await t.pool.query('select id from users order by id limit 20')).rows.map((r) => Number(r.id));
    const before = await found(term);
    expect(before.videos.length).toBeGreaterThan(0);

    // Each like rewrites its work's row (its counters are indexed), and the new row's tokens wait in the pending list.
    for (const fan of fans) for (const r of rows) await setVideoLike(fan, Number(r.id), true);
    expect(await mergeGinPending()).toBeGreaterThan(0);
    expect(await mergeGinPending()).toBe(0);
    expect(await found(term)).toEqual(before);
  });
});
