/**
 * The API's doors for what users type and how often they write: characters no text field takes are a 400 in the
 * family's envelope wherever they arrive (query, form, JSON, multipart), and every write counts against a per-account
 * and a per-address limit answered with 429 and Retry-After.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { IP_WRITE_RATE, USER_WRITE_RATE } from '../../src/server/services/write-limits.ts';
import { reset } from '../../src/server/services/rate-limit.ts';
import { call, expectErrorA, expectErrorB, tokenFor, useApiDb, one } from '../api/helpers.ts';
import { sql } from 'drizzle-orm';

const ctx = useApiDb();
const W = '/api/aweme/v1/web';
let token: string;
let video: number;

beforeAll(async () => {
  const u = await one<{ id: number }>(ctx, sql`select id from users order by id limit 1`);
  token = await tokenFor(u.id);
  video = (
    await one<{ id: number }>(
      ctx,
      sql`select id from videos where deleted_at is null and visibility = 'public' and status = 'published' and author_id <> ${u.id} order by id limit 1`,
    )
  ).id;
});

describe('text with a character no field takes', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a bell', 'a\u0007b'],
    ['an escape', '\u001b[31m'],
    ['a lone surrogate', 'a\uD800b'],
    ['DEL', 'a\u007Fb'],
    ['a C1 control (CSI, a terminal’s ESC [)', '\u009B31m'],
    ['a C1 line break (NEL)', 'a\u0085b'],
  ])('is a 400 with the catalogue message: %s in a query, a form, JSON and multipart', async (_, bad) => {
    for (const path of [
      `${W}/general/search/single/`,
      `${W}/search/sug/`,
      `${W}/api/suggest_words/`,
      `${W}/comment/mention/resolve/`,
    ]) {
      const field = path.includes('suggest_words') ? 'query' : path.includes('mention') ? 'nicknames' : 'keyword';
      // A lone surrogate cannot be %-encoded: it goes through JSON below.
      if (bad.isWellFormed()) {
        const res = await call('GET', path, { query: { [field]: bad } });
        expectErrorA(res, 400, 2);
        expect(res.body.status_msg).toBe(t('error.badText'));
      }
    }
    const form = await call('POST', `${W}/comment/publish`, {
      form: { aweme_id: video, text: bad.isWellFormed() ? bad : 'ok' },
      token,
    });
    if (bad.isWellFormed()) expect(form.body.status_msg).toBe(t('error.badText'));
    const json = await call('POST', `${W}/danmaku/send/`, { json: { aweme_id: video, text: bad }, token });
    expectErrorA(json, 400, 2);
    expect(json.body.status_msg).toBe(t('error.badText'));
    const nested = await call('POST', '/api/feedback', {
      json: { content: 'a long enough text', extra: [{ deep: bad }] },
    });
    expectErrorB(nested, 400);
    // Multipart carries UTF-8, where a lone surrogate cannot be written (FormData sends U+FFFD instead).
    if (bad.isWellFormed()) {
      const multipart = new FormData();
      multipart.set('content', `反馈内容${bad}`);
      const res = await handleApi(
        new Request('http://shanying.test/api/feedback', { method: 'POST', body: multipart }),
      );
      expect(res.status).toBe(400);
    }
  });

  it('is a 400 in a multipart text field or field name that is not UTF-8, where formData() would put U+FFFD', async () => {
    const count = async () =>
      (await one<{ n: number }>(ctx, sql`select comment_count as n from videos where id = ${video}`)).n;
    const before = await count();
    const part = (name: Buffer | string, value: Buffer | string) =>
      Buffer.concat([
        Buffer.from('--b\r\nContent-Disposition: form-data; name="'),
        Buffer.from(name),
        Buffer.from('"\r\n\r\n'),
        Buffer.from(value),
        Buffer.from('\r\n'),
      ]);
    const multipart = (...parts: Buffer[]) =>
      call('POST', `${W}/comment/publish`, {
        token,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        body: Buffer.concat([...parts, Buffer.from('--b--\r\n')]),
      });
    const notUtf8 = [
      Buffer.from([0xff, 0xfe]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from([0xe4, 0xb8]),
    ];
    for (const bad of notUtf8) {
      const text = Buffer.concat([Buffer.from('坏'), bad, Buffer.from('字节')]);
      expectErrorA(await multipart(part('aweme_id', String(video)), part('text', text)), 400, 2);
      // In a field's name, also one whose name looks like a file part's header.
      expectErrorA(
        await multipart(
          part('aweme_id', String(video)),
          part('text', '好字节'),
          part(Buffer.concat([Buffer.from('x'), bad]), '1'),
        ),
        400,
        2,
      );
      expectErrorA(
        await multipart(part('aweme_id', String(video)), part('text; filename=x.txt', text), part('text', '好字节')),
        400,
        2,
      );
    }
    expect(await count()).toBe(before);
    const ok = await multipart(part('aweme_id', String(video)), part('text', '好字节'));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.comment.text).toBe('好字节');
  });

  it('keeps tabs and line breaks in multi-line text', async () => {
    const res = await call('POST', `${W}/comment/publish`, {
      form: { aweme_id: video, text: '第一行\n第二行\t缩进\r\n' },
      token,
    });
    expect(res.status, res.text).toBe(200);
  });
});

describe('write limits', () => {
  it('answer 429 with Retry-After in the envelope once an account is over its limit', async () => {
    await reset('');
    const hits = await Promise.all(
      Array.from({ length: USER_WRITE_RATE.limit + 1 }, () =>
        call('POST', `${W}/aweme/watchlater/add/`, { form: { aweme_id: video }, token }),
      ),
    );
    const refused = hits.filter((h) => h.status === 429);
    expect(refused).toHaveLength(1);
    expectErrorA(refused[0]!, 429, 7);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);

  it('count anonymous writes against the address', async () => {
    await reset('');
    const from = (address: string) =>
      handleApi(
        new Request('http://shanying.test/api/passport/qr/create', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        }),
        { clientAddress: address },
      );
    // An address already at its limit, beside one that is not.
    await ctx.db.execute(
      sql`insert into rate_limits (key, count, reset_at) values ('write:ip:203.0.113.9', ${IP_WRITE_RATE.limit}, (extract(epoch from clock_timestamp()) * 1000)::bigint + 60000)`,
    );
    const over = await from('203.0.113.9');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await from('203.0.113.10')).status).toBe(200);
  });

  it('leave reads alone, also Family B reads sent as POST', async () => {
    await reset('');
    await ctx.db.execute(
      sql`insert into rate_limits (key, count, reset_at) values ('write:ip:unknown', 1000000, (extract(epoch from clock_timestamp()) * 1000)::bigint + 60000)`,
    );
    expect((await call('POST', '/api/video/feed', { form: { size: 2 } })).status).toBe(200);
    expect((await call('POST', `${W.replace('v1', 'v2')}/module/feed/`, { form: { count: 2 } })).status).toBe(200);
    expect((await call('POST', `${W}/aweme/watchlater/add/`, { form: { aweme_id: video }, token })).status).toBe(429);
    await reset('');
  });
});

describe('integers beyond their range', () => {
  it.each([
    ['aweme_id', `${W}/aweme/detail/?aweme_id=2147483648`],
    ['count', `${W}/tab/feed/?count=2147483648`],
    ['cursor', `${W}/comment/list/?aweme_id=1&cursor=2147483648`],
    ['max_time', `${W}/webcast/feed/?max_time=253402300800000`],
    ['cursor', `${W}/notice/?cursor=9007199254740993`],
  ])('%s is a 400', async (_, path) => {
    const res = await call('GET', path, { token });
    expect(res.status, res.text).toBe(400);
  });

  it('max_time is a time in milliseconds, beyond int4 like every date of this century', async () => {
    const res = await call('GET', `${W}/webcast/feed/?max_time=${Date.now()}`);
    expect(res.status).toBe(200);
  });
});
