import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { notify } from './notifications.ts';
import { getSettings, NOTIFY_KINDS, setNotify, setPrivacy } from './settings.ts';

let t: TestDb;
let me: number;
let other: number;
beforeAll(async () => {
  t = await freshDb();
  const { rows } = await t.db.execute<{ id: number }>(sql`select id from users order by id limit 2`);
  [me, other] = rows.map((r) => r.id) as [number, number];
});
afterAll(() => t.close());

describe('account settings', () => {
  it('reads every kind as on and everything public for a fresh account', async () => {
    await t.db.execute(
      sql`update users set notify_settings = '{}', privacy = '{"likesPublic": true, "collectsPublic": true}' where id = ${me}`,
    );
    const s = await getSettings(me);
    expect(s.privacy).toEqual({ likesPublic: true, collectsPublic: true });
    expect(Object.keys(s.notify)).toEqual([...NOTIFY_KINDS]);
    expect(Object.values(s.notify).every(Boolean)).toBe(true);
  });

  it('changes one privacy flag and keeps the other', async () => {
    expect(await setPrivacy(me, { likesPublic: false })).toEqual({ likesPublic: false, collectsPublic: true });
    expect(await setPrivacy(me, { collectsPublic: false })).toEqual({ likesPublic: false, collectsPublic: false });
    expect(await setPrivacy(me, { likesPublic: true, collectsPublic: undefined })).toEqual({
      likesPublic: true,
      collectsPublic: false,
    });
    expect((await getSettings(me)).privacy).toEqual({ likesPublic: true, collectsPublic: false });
  });

  it('ignores keys that are not settings', async () => {
    await setPrivacy(me, { likesPublic: true, evil: 'x' } as never);
    const { rows } = await t.db.execute<{ privacy: Record<string, unknown> }>(
      sql`select privacy from users where id = ${me}`,
    );
    expect(Object.keys(rows[0]!.privacy).sort()).toEqual(['collectsPublic', 'likesPublic']);
    const n = await setNotify(me, { follow: false, nope: false } as never);
    expect(n.follow).toBe(false);
    expect('nope' in n).toBe(false);
  });

  it('a muted kind is no longer stored by notify(), and turning it back on restores it', async () => {
    await setNotify(me, { like_video: false });
    const { rows } = await t.db.execute<{ id: number }>(sql`select id from videos where author_id = ${me} limit 1`);
    const videoId = rows[0]?.id;
    expect(await notify(t.db, { userId: me, actorId: other, kind: 'like_video', videoId })).toBe(false);
    expect(await notify(t.db, { userId: me, actorId: other, kind: 'comment', videoId, text: '好' })).toBe(true);
    expect((await setNotify(me, { like_video: true })).like_video).toBe(true);
    expect(await notify(t.db, { userId: me, actorId: other, kind: 'like_video', videoId })).toBe(true);
  });

  it('answers not found for an unknown user', async () => {
    await expect(getSettings(2_000_000_000)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(setPrivacy(2_000_000_000, { likesPublic: false })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
