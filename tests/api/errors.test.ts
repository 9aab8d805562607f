/** The door's failures: 400, 401, 404, 405, 413, 415 in the family's envelope, never a 500 or a stack. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { errorResponse } from '../../src/server/api/envelope.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { call, expectErrorA, expectErrorB, one, responseSchema, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/api/aweme/v1/web';

let token: string;
let videoId: number;

beforeAll(async () => {
  const u = await one<{ id: number; sec_uid: string }>(ctx, sql`select id, sec_uid from users where is_demo limit 1`);
  token = await tokenFor(u.id);
  videoId = (await one<{ id: number }>(ctx, sql`select id from videos where deleted_at is null order by id limit 1`))
    .id;
});

const commentCount = async () =>
  (await one<{ n: number }>(ctx, sql`select comment_count as n from videos where id = ${videoId}`)).n;

describe('400 bad input', () => {
  it.each([
    ['aweme_id letters', `${W}/aweme/detail/`, { aweme_id: 'abc' }],
    ['aweme_id zero', `${W}/aweme/detail/`, { aweme_id: '0' }],
    ['aweme_id negative', `${W}/aweme/detail/`, { aweme_id: '-1' }],
    ['aweme_id beyond int4', `${W}/aweme/detail/`, { aweme_id: '99999999999' }],
    ['aweme_id fraction', `${W}/aweme/detail/`, { aweme_id: '1.5' }],
    ['aweme_id missing', `${W}/aweme/detail/`, {}],
    ['count 0', `${W}/tab/feed/`, { count: '0' }],
    ['count 51', `${W}/tab/feed/`, { count: '51' }],
    ['count letters', `${W}/tab/feed/`, { count: 'ten' }],
    ['negative cursor', `${W}/comment/list/`, { aweme_id: '1', cursor: '-1' }],
    ['negative max_cursor', `${W}/aweme/post/`, { sec_user_id: 'x', max_cursor: '-5' }],
    ['keyword over 100', `${W}/general/search/single/`, { keyword: '搜'.repeat(101) }],
    ['empty keyword', `${W}/general/search/single/`, { keyword: '  ' }],
    ['bad sec_user_id', `${W}/user/profile/other/`, { sec_user_id: '<script>' }],
    ['bad filterGids', `${W}/aweme/related/`, { aweme_id: '1', filterGids: '1,x' }],
    ['max_time beyond any date', `${W}/webcast/feed/`, { max_time: '9999999999999999' }],
  ])('%s', async (_name, path, query) => {
    const res = await call('GET', path, { query });
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toMatch(t('error.badRequest'));
  });

  it('a 100-character keyword is fine', async () => {
    expect((await call('GET', `${W}/general/search/single/`, { query: { keyword: '搜'.repeat(100) } })).status).toBe(
      200,
    );
  });

  it('a malformed query string', async () => {
    expectErrorA(await call('GET', `${W}/tab/feed/?count=%E4%ZZ`), 400, 2);
  });

  it('a malformed form body changes nothing', async () => {
    const before = await commentCount();
    const res = await call('POST', `${W}/comment/publish`, {
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `aweme_id=${videoId}&text=%E4%B8%ZZ`,
    });
    expectErrorA(res, 400, 2);
    const badUtf8 = await call('POST', `${W}/comment/publish`, {
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `aweme_id=${videoId}&text=%FF%FE`,
    });
    expectErrorA(badUtf8, 400, 2);
    expect(await commentCount()).toBe(before);
  });

  it('malformed JSON and a non-object JSON body', async () => {
    expectErrorB(
      await call('POST', '/api/video/getVideoInfoById', {
        headers: { 'content-type': 'application/json' },
        body: '{"videoId": ',
      }),
      400,
    );
    expectErrorB(await call('POST', '/api/video/getVideoInfoById', { json: [1, 2] }), 400);
  });

  it('a comment over 500 characters is refused and nothing is stored; 500 is accepted', async () => {
    const before = await commentCount();
    expectErrorA(
      await call('POST', `${W}/comment/publish`, { token, form: { aweme_id: videoId, text: '长'.repeat(501) } }),
      400,
      2,
    );
    expectErrorA(
      await call('POST', `${W}/comment/publish`, { token, form: { aweme_id: videoId, text: '   ' } }),
      400,
      2,
    );
    expect(await commentCount()).toBe(before);
    const ok = await call('POST', `${W}/comment/publish`, {
      token,
      form: { aweme_id: videoId, text: '长'.repeat(500) },
    });
    expect(ok.status).toBe(200);
    expect(await commentCount()).toBe(before + 1);
  });

  it('a wrong type on a write', async () => {
    expectErrorA(await call('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: videoId, type: 2 } }), 400, 2);
    expectErrorA(await call('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: 'x', type: 1 } }), 400, 2);
    expectErrorA(await call('POST', `${W}/commit/follow/user/`, { token, form: { type: 1 } }), 400, 2);
  });

  it('an unsupported body type is a 415', async () => {
    const res = await call('POST', `${W}/aweme/share/`, {
      token,
      headers: { 'content-type': 'text/plain' },
      body: 'aweme_id=1',
    });
    expectErrorA(res, 415, 2);
  });
});

describe('401 not logged in', () => {
  it('a personal read without a session', async () => {
    const res = await call('GET', `${W}/history/read/`);
    expectErrorA(res, 401, 8);
    expect(res.body.status_msg).toBe(t('error.unauthorized'));
  });

  it('user/profile/self without a session answers HTTP 200 with status_code 8, as douyin.com does', async () => {
    for (const opts of [{}, { token: 'not-a-real-token' }, { cookie: 'sy_session=not-a-real-token' }]) {
      const res = await call('GET', `${W}/user/profile/self/`, opts);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status_code: 8, status_msg: t('error.unauthorized') });
      expect(responseSchema('GET', '/aweme/v1/web/user/profile/self/').safeParse(res.body).success).toBe(true);
    }
  });

  it('a bad token', async () => {
    expectErrorA(await call('GET', `${W}/history/read/`, { token: 'not-a-real-token' }), 401, 8);
    expectErrorA(
      await call('POST', `${W}/commit/item/digg/`, { token: 'x'.repeat(43), form: { aweme_id: videoId, type: 1 } }),
      401,
      8,
    );
  });

  it('the session cookie serves reads, but no write from a request that names no page of this site', async () => {
    const cookie = `other=1; sy_session=${token}`;
    expect((await call('GET', `${W}/user/profile/self/`, { cookie })).status).toBe(200);
    const before = await one<{ n: number }>(ctx, sql`select digg_count as n from videos where id = ${videoId}`);
    expectErrorA(
      await call('POST', `${W}/commit/item/digg/`, { cookie, form: { aweme_id: videoId, type: 1 } }),
      401,
      8,
    );
    const after = await one<{ n: number }>(ctx, sql`select digg_count as n from videos where id = ${videoId}`);
    expect(after.n).toBe(before.n);
  });

  it('a revoked session', async () => {
    const { revokeSession } = await import('../../src/server/services/sessions.ts');
    const t = await tokenFor((await one<{ id: number }>(ctx, sql`select id from users order by id limit 1`)).id);
    expect((await call('GET', `${W}/user/profile/self/`, { token: t })).body.status_code).toBe(0);
    await revokeSession(t);
    expect((await call('GET', `${W}/user/profile/self/`, { token: t })).body.status_code).toBe(8);
    expectErrorA(await call('GET', `${W}/history/read/`, { token: t }), 401, 8);
  });

  it('Family B answers code 401', async () => {
    expectErrorB(await call('POST', '/api/video/myLikeVideos'), 401);
  });
});

describe('404 and 405', () => {
  it('an unknown path', async () => {
    expectErrorA(await call('GET', `${W}/no/such/thing/`), 404, 4);
    expectErrorB(await call('GET', '/api/nothing'), 404);
    expectErrorB(await call('GET', '/api'), 404);
    // Unknown paths under douyin's prefixes answer in Family A, passport's too, also behind doubled slashes.
    expectErrorA(await call('POST', '/api/passport/login/nothing'), 404, 4);
    expectErrorA(await call('GET', '/api//aweme/v1/web/tab/feed/'), 404, 4);
    expectErrorA(await call('GET', '/api/passport/demo%00'), 404, 4);
  });

  it('a 503 before routing answers in the family of the path, passport’s included', async () => {
    const { unavailableAnswer } = await import('../../src/server/api/unavailable.ts');
    expect(JSON.parse(unavailableAnswer('/api/passport/login/password', 1).body)).toEqual({
      status_code: 1,
      status_msg: t('error.unavailable'),
    });
    expect(JSON.parse(unavailableAnswer('/api/video/feed', 1).body)).toEqual({
      code: '503',
      msg: t('error.unavailable'),
      data: null,
    });
  });

  it('unknown ids', async () => {
    expectErrorA(await call('GET', `${W}/aweme/post/`, { query: { sec_user_id: 'MS4wLjABAAAAnobody' } }), 404, 4);
    expectErrorA(await call('GET', `${W}/mix/list/`, { query: { sec_user_id: 'MS4wLjABAAAAnobody' } }), 404, 4);
    expectErrorA(
      await call('GET', `${W}/user/follower/list/`, { query: { sec_user_id: 'MS4wLjABAAAAnobody' } }),
      404,
      4,
    );
    expectErrorA(
      await call('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: 2_000_000_000, type: 1 } }),
      404,
      4,
    );
    expectErrorA(
      await call('POST', `${W}/comment/digg`, { token, form: { cid: 2_000_000_000, digg_type: 1 } }),
      404,
      4,
    );
    expectErrorA(
      await call('POST', `${W}/commit/follow/user/`, { token, form: { sec_user_id: 'MS4wLjABAAAAnobody', type: 1 } }),
      404,
      4,
    );
  });

  it('a known path with another method is a 405 with Allow', async () => {
    const post = await call('POST', `${W}/tab/feed/`, { token, form: {} });
    expectErrorA(post, 405, 5);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const get = await call('GET', `${W}/commit/item/digg/`);
    expectErrorA(get, 405, 5);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expectErrorB(await call('DELETE', '/api/video/self'), 405);
  });

  it('HEAD answers a GET route without a body, OPTIONS lists the methods', async () => {
    const head = await call('HEAD', `${W}/tab/feed/`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const options = await call('OPTIONS', `${W}/comment/publish`);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('413 too large', () => {
  it('a 2 MB form body', async () => {
    const before = await commentCount();
    const res = await call('POST', `${W}/comment/publish`, {
      token,
      form: { aweme_id: videoId, text: 'a'.repeat(2 * 1024 * 1024) },
    });
    expectErrorA(res, 413, 6);
    expect(await commentCount()).toBe(before);
  });

  it('a declared Content-Length over 1 MB is refused before reading', async () => {
    const res = await call('POST', `${W}/aweme/share/`, {
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(2 * 1024 * 1024) },
      body: `aweme_id=${videoId}`,
    });
    expectErrorA(res, 413, 6);
  });

  it('a streamed body without Content-Length is counted as it arrives', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const req = new Request(`http://x${W}/comment/publish`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(req.headers.get('content-length')).toBeNull();
    const res = await handleApi(req);
    expect(res.status).toBe(413);
    expect((await res.json()).status_code).toBe(6);
  });

  it("the adapter's own size-limit error is a 413 too", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error('Body size limit exceeded: received more than 1048576 bytes'));
      },
    });
    const req = new Request(`http://x/api/video/feed`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    const res = await handleApi(req);
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('413');
  });
});

describe('service errors', () => {
  it('map to the HTTP status and each family’s code; 429 carries Retry-After', async () => {
    const { ServiceError } = await import('../../src/server/errors.ts');
    const cases = [
      ['invalid', 400, 2],
      ['unauthorized', 401, 8],
      ['forbidden', 403, 9],
      ['not_found', 404, 4],
      ['conflict', 409, 10],
      ['rate_limited', 429, 7],
    ] as const;
    for (const [kind, status, code] of cases) {
      const error = new ServiceError(kind, 'error.conflict', undefined, { retryAfter: 30 });
      // 401 always answers the one not-logged-in message, whatever the service said.
      const text = kind === 'unauthorized' ? t('error.unauthorized') : t('error.conflict');
      const a = errorResponse('A', error, { method: 'POST', path: '/x' });
      expect(a.status).toBe(status);
      expect(await a.json()).toEqual({ status_code: code, status_msg: text });
      const b = errorResponse('B', error, { method: 'POST', path: '/x' });
      expect(await b.json()).toEqual({ code: String(status), msg: text, data: null });
      if (kind === 'rate_limited') expect(a.headers.get('retry-after')).toBe('30');
    }
  });
});

describe('500', () => {
  it('answers a generic message and logs one JSON line with the message and stack frames to stderr', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      const res = errorResponse('A', new Error('secret detail'), { method: 'GET', path: '/x' });
      const body = await res.json();
      expect(res.status).toBe(500);
      expect(body.status_code).toBe(1);
      expect(JSON.stringify(body)).not.toContain('secret');
      expect(writes).toHaveLength(1);
      const line = JSON.parse(writes[0]!);
      expect(line.error).toBe('Error');
      expect(line.message).toBe('secret detail');
      expect(line.stack).toMatch(/^\s+at /);
    } finally {
      spy.mockRestore();
    }
  });
});
