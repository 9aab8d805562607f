import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorB, ok, one, tokenFor, useApiDb } from '../../../../tests/api/helpers.ts';

const ctx = useApiDb();
let me: { id: number };
let author: { id: number; sec_uid: string };
let token: string;

const stored = async () =>
  Number((await one<{ n: number }>(ctx, sql`select count(*)::int as n from mutes where user_id = ${me.id}`)).n);

beforeAll(async () => {
  me = await one(ctx, sql`select id from users order by id limit 1`);
  author = await one(ctx, sql`select id, sec_uid from users where id <> ${me.id} order by id limit 1`);
  token = await tokenFor(me.id);
});

describe('mute routes', () => {
  it('need a login', async () => {
    expectErrorB(await call('GET', '/api/user/mutes'), 401);
    expectErrorB(await call('POST', '/api/user/mutes/add', { form: { kind: 'keyword', value: '猫' } }), 401);
    expectErrorB(await call('POST', '/api/user/mutes/remove', { form: { id: 1 } }), 401);
  });

  it('add, list and remove a keyword, an author (by sec_user_id) and a hashtag', async () => {
    const kw = await ok('POST', '/user/mutes/add', { token, form: { kind: 'keyword', value: '剧透' } });
    expect(kw.data).toMatchObject({ kind: 'keyword', value: '剧透', user: null });
    const who = await ok('POST', '/user/mutes/add', { token, form: { kind: 'author', sec_user_id: author.sec_uid } });
    expect(who.data.user.secUid).toBe(author.sec_uid);
    expect(who.data.value).toBe(String(author.id));
    await ok('POST', '/user/mutes/add', { token, form: { kind: 'hashtag', value: '#美食' } });
    const list = await ok('GET', '/user/mutes', { token });
    expect(list.data.items.map((m: { kind: string; value: string }) => `${m.kind}:${m.value}`).sort()).toEqual(
      [`author:${author.id}`, 'hashtag:美食', 'keyword:剧透'].sort(),
    );
    expect(list.data.limits).toEqual({ keywords: 200, keywordLength: 20, hashtagLength: 50 });
    // The page's marks carry them, for a shared page to hide what it rendered for everyone.
    const marks = await ok('GET', '/user/marks', { token });
    expect(marks.data.mutes).toEqual({ keywords: ['剧透'], authors: [author.sec_uid], hashtags: ['美食'] });
    expect((await ok('GET', '/user/marks', {})).data.mutes).toEqual({ keywords: [], authors: [], hashtags: [] });
    // 撤销 by what it names, and 移除 by id.
    await ok('POST', '/user/mutes/remove', { token, form: { kind: 'author', user_id: author.id } });
    await ok('POST', '/user/mutes/remove', { token, form: { id: kw.data.id } });
    await ok('POST', '/user/mutes/remove', { token, form: { kind: 'hashtag', value: '美食' } });
    expect(await stored()).toBe(0);
  });

  it('refuses bad input with a clear error in the envelope and stores nothing', async () => {
    const refused = async (form: Record<string, string | number>, status = 400) => {
      const res = await call('POST', '/api/user/mutes/add', { token, form });
      expectErrorB(res, status);
      expect(res.body.msg.length).toBeGreaterThan(0);
      return res.body.msg as string;
    };
    expect(await refused({ kind: 'keyword', value: '长'.repeat(21) })).toBe('屏蔽词最多 20 个字');
    expect(await refused({ kind: 'keyword', value: 'a\u0000b' })).toBeTruthy();
    expect(await refused({ kind: 'keyword', value: 'a\u001bb' })).toBeTruthy();
    expect(await refused({ kind: 'keyword', value: '' })).toBeTruthy();
    expect(await refused({ kind: 'nonsense', value: '猫' })).toBeTruthy();
    expect(await refused({ kind: 'author', user_id: 2_000_000_000 }, 404)).toBe('用户不存在');
    expect(await refused({ kind: 'author' })).toBeTruthy();
    expect(await refused({ kind: 'author', user_id: 'abc' })).toBeTruthy();
    expect(await refused({ kind: 'author', user_id: me.id })).toBe('不能屏蔽自己');
    const malformed = await call('POST', '/api/user/mutes/add', {
      token,
      body: '{"kind":',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorB(malformed, 400);
    expect(await stored()).toBe(0);
  });

  it('keeps 200 keywords and refuses the 201st, storing nothing', async () => {
    for (let i = 0; i < 200; i++)
      await ok('POST', '/user/mutes/add', { token, form: { kind: 'keyword', value: `词${i}` } });
    const res = await call('POST', '/api/user/mutes/add', { token, form: { kind: 'keyword', value: '第二百零一个' } });
    expectErrorB(res, 400);
    expect(res.body.msg).toBe('屏蔽词最多添加 200 个');
    expect(await stored()).toBe(200);
    const list = await ok('GET', '/user/mutes', { token });
    expect(list.data.items.some((m: { value: string }) => m.value === '第二百零一个')).toBe(false);
  });
});
