/** An optional parameter sent empty (`from_group_id=`) answers as if it were absent, on every route; a required one is still refused. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

let token: string;
let videoId: number;

beforeAll(async () => {
  const demo = await one<{ id: number }>(ctx, sql`select id from users where is_demo limit 1`);
  token = await tokenFor(demo.id);
  videoId = (
    await one<{ id: number }>(
      ctx,
      sql`
    select video_id as id from comments where parent_id is null and deleted_at is null
    group by video_id order by count(*) desc, video_id limit 1`,
    )
  ).id;
});

describe('an empty optional parameter is an absent one', () => {
  it.each([
    ['suggest_words from_group_id=', `${W}/api/suggest_words/`, { query: '美食' }, { from_group_id: '' }],
    [
      'suggest_words refresh_index= and count=',
      `${W}/api/suggest_words/`,
      { query: '美食' },
      { refresh_index: '', count: '' },
    ],
    ['tab/feed refresh_index= and count=', `${W}/tab/feed/`, {}, { refresh_index: '', count: '' }],
    ['module/feed refresh_index=', `${W}/module/feed/`, { count: 5 }, { refresh_index: '' }],
    ['comment/list cursor= and count=', `${W}/comment/list/`, {}, { cursor: '', count: '' }],
    ['discover/search type=', `${W}/discover/search/`, { keyword: '美' }, { type: '' }],
  ])('%s', async (_name, path, base, empty) => {
    const query = { ...base, ...(path.includes('comment/list') ? { aweme_id: videoId } : {}) };
    const absent = await ok('GET', path, { query });
    const sent = await ok('GET', path, { query: { ...query, ...empty } });
    expect(sent).toEqual(absent);
  });

  it('Family B too: /api/video/self userId= reads the viewer’s own tab', async () => {
    const absent = await ok('GET', '/video/self', { token, query: { showTab: 'like' } });
    const sent = await ok('GET', '/video/self', { token, query: { showTab: 'like', userId: '', page: '', size: '' } });
    expect(sent).toEqual(absent);
  });

  it('in a form body: comment/publish with reply_id= publishes a top-level comment', async () => {
    const res = await ok('POST', `${W}/comment/publish`, {
      token,
      form: { aweme_id: videoId, text: '空参数也是没有参数', reply_id: '', reply_to_reply_id: '' },
    });
    expect(res.comment.reply_id).toBe('0');
  });
});

describe('a required parameter sent empty is still refused', () => {
  it.each([
    ['aweme_id=', `${W}/aweme/detail/`, { aweme_id: '' }],
    ['keyword=', `${W}/general/search/single/`, { keyword: '' }],
    ['search/sug keyword=', `${W}/search/sug/`, { keyword: '' }],
    ['sec_user_id=', `${W}/user/profile/other/`, { sec_user_id: '' }],
  ])('%s', async (_name, path, query) => {
    expectErrorA(await call('GET', `/api${path}`, { query }), 400, 2);
  });

  it('an empty comment text or type on a write, and nothing is stored', async () => {
    const before = await one<{ n: number }>(ctx, sql`select comment_count as n from videos where id = ${videoId}`);
    expectErrorA(
      await call('POST', `/api${W}/comment/publish`, { token, form: { aweme_id: videoId, text: '' } }),
      400,
      2,
    );
    expectErrorA(
      await call('POST', `/api${W}/commit/item/digg/`, { token, form: { aweme_id: videoId, type: '' } }),
      400,
      2,
    );
    const after = await one<{ n: number }>(ctx, sql`select comment_count as n from videos where id = ${videoId}`);
    expect(after.n).toBe(before.n);
  });
});
