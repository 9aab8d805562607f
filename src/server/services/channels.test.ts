import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { listChannels } from './channels.ts';
import { CHANNEL_IDS } from './videos.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

describe('channels', () => {
  it('lists the eight channels from the editors’ file, in its order', async () => {
    const list = await listChannels();
    expect(list.map((c) => c.id)).toEqual([...CHANNEL_IDS]);
    expect(list[0]).toMatchObject({ id: 300201, name: '娱乐', banner: 'banners/300201.webp' });
    for (const c of list) expect(c.hashtags.length).toBeGreaterThan(0);
  });

  it('counts only the works anyone may see', async () => {
    const before = (await listChannels()).find((c) => c.id === 300203)!.videoCount;
    expect(before).toBeGreaterThan(0);
    const { rows } = await t.db.execute<{ id: number }>(sql`
      select id from videos where channel_id = 300203 and deleted_at is null and status = 'published' and visibility = 'public' order by id limit 2`);
    await t.db.execute(sql`update videos set visibility = 'private' where id = ${rows[0]!.id}`);
    await t.db.execute(sql`update videos set deleted_at = now() where id = ${rows[1]!.id}`);
    expect((await listChannels()).find((c) => c.id === 300203)!.videoCount).toBe(before - 2);
  });
});
