import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorB, ok, one, tokenFor, useApiDb } from '../../../../tests/api/helpers.ts';

const ctx = useApiDb();
let me: { id: number; work: number; other: number };
let token: string;

beforeAll(async () => {
  me = await one(
    ctx,
    sql`
    select u.id, (select min(id) from videos where author_id = u.id) as work,
           (select min(id) from videos where author_id <> u.id) as other
    from users u where u.is_demo`,
  );
  token = await tokenFor(me.id);
});

describe('GET /api/studio/stats', () => {
  it('needs a login', async () => {
    expectErrorB(await call('GET', '/api/studio/stats'), 401);
  });

  it('answers 7 days by default, 30 on asking, each day and the totals', async () => {
    const week = await ok('GET', '/studio/stats', { token });
    expect(week.data.days).toBe(7);
    expect(week.data.daily).toHaveLength(7);
    expect(week.data.workId).toBeNull();
    expect(week.data.works.map((w: { id: number }) => w.id)).toContain(me.work);
    const month = await ok('GET', '/studio/stats', { token, query: { days: 30 } });
    expect(month.data.daily).toHaveLength(30);
    expect(month.data.daily.at(-7)).toEqual(week.data.daily[0]);
  });

  it('limits to one of my works, and refuses anyone else’s (404) or another range (400)', async () => {
    expect((await ok('GET', '/studio/stats', { token, query: { workId: me.work } })).data.workId).toBe(me.work);
    expectErrorB(await call('GET', '/api/studio/stats', { token, query: { workId: me.other } }), 404);
    expectErrorB(await call('GET', '/api/studio/stats', { token, query: { days: 14 } }), 400);
    expectErrorB(await call('GET', '/api/studio/stats', { token, query: { days: 'week' } }), 400);
  });
});
