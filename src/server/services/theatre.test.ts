import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { recordHistory } from './interactions.ts';
import { resumePoint } from './theatre.ts';

let testDb: TestDb;
let user: number;
let series: { id: number; videos: number[] };

beforeAll(async () => {
  testDb = await freshDb();
  user = (await testDb.db.execute<{ id: number }>(sql`select id from users where not is_demo order by id desc limit 1`))
    .rows[0]!.id;
  const rows = await testDb.db.execute<{ series_id: number; video_id: number }>(sql`
    select series_id, video_id from series_items
    where series_id = (select id from series where kind = 'theatre' and item_count >= 3 order by id limit 1)
    order by position`);
  series = { id: rows.rows[0]!.series_id, videos: rows.rows.map((r) => r.video_id) };
  await testDb.db.execute(sql`delete from watch_history where user_id = ${user}`);
});

afterAll(() => testDb.close());

describe('resumePoint', () => {
  it('is null before the viewer starts a series', async () => {
    expect(await resumePoint(user, series.id)).toBeNull();
  });

  it('is the episode watched last, with its progress', async () => {
    await recordHistory(user, series.videos[0]!, 1_500);
    await testDb.db.execute(
      sql`update watch_history set watched_at = now() - interval '1 hour' where user_id = ${user}`,
    );
    await recordHistory(user, series.videos[2]!, 2_000);
    expect(await resumePoint(user, series.id)).toEqual({ videoId: series.videos[2], episode: 3, progressMs: 2_000 });
  });
});
