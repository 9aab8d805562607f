import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { ownProfileExtras } from './own-profile.ts';
import { profileTab } from './videos.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

describe('ownProfileExtras', () => {
  it('counts the history and watch-later tabs as they list', async () => {
    const { rows } = await db.execute<{ id: number }>(
      sql`select user_id as id from watch_later group by user_id order by count(*) desc limit 1`,
    );
    const id = rows[0]!.id;
    const extras = await ownProfileExtras(id);
    expect(extras).not.toBeNull();
    expect(extras!.watchLaterCount).toBe((await profileTab(id, 'watch_later', { count: 50 }, id)).items.length);
    expect(extras!.recordCount).toBe((await profileTab(id, 'record', { count: 50 }, id)).items.length);
  });

  it('says whether a password is set, and nothing for an unknown user', async () => {
    const { rows } = await db.execute<{ id: number }>(
      sql`select id from users where password_hash is not null limit 1`,
    );
    expect((await ownProfileExtras(rows[0]!.id))?.hasPassword).toBe(true);
    await db.execute(sql`update users set password_hash = null where id = ${rows[0]!.id}`);
    expect((await ownProfileExtras(rows[0]!.id))?.hasPassword).toBe(false);
    expect(await ownProfileExtras(2_000_000_000)).toBeNull();
  });
});
