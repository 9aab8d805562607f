import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { addNewFollowers, addVideoStat } from './daily-stats.ts';

let db: Db;
useFreshDb((d) => (db = d));

it("adds to today's row, creating it on the first count", async () => {
  await addVideoStat(1, 'plays');
  await addVideoStat(1, 'plays', 2);
  await addVideoStat(1, 'likes', -1);
  await addNewFollowers(1, 3);
  const { rows } = await db.execute(sql`select plays, likes, comments from video_daily_stats where video_id = 1`);
  expect(rows).toEqual([{ plays: 3, likes: -1, comments: 0 }]);
  const followers = await db.execute(sql`select new_followers from user_daily_followers where user_id = 1`);
  expect(followers.rows).toEqual([{ new_followers: 3 }]);
});
