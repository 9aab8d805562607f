/**
 * The page cache on the production server over a real database: the headers of every page route for an anonymous
 * visitor (public, ETag, 304) and for a logged-in one (the same shared page for public content; private, no-store for
 * the pages about the viewer), a new comment showing on the anonymous video page within the cache's lifetime, and
 * nothing of a session (or a stale cookie) ever reaching the shared cache.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { PAGE_FRESH_MS } from '../../src/server/cache/page-cache.ts';
import { isPersonalPage } from '../../src/server/http/personal-pages.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { startBuiltServer, type BuiltServer } from './built-server.ts';

let server: BuiltServer;
let token: string;
/** The logged-in viewer's nickname: what no shared page may carry. */
let nickname: string;
let ids: { video: number; secUid: string; room: number; series: number };

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One GET (or HEAD) with exactly these headers; bodies read as they come (no Accept-Encoding unless given). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const SHARED = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/;
const PERSONAL = 'private, no-store';
const LOGGED_IN_MARK = t('menu.logout');

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_IP_FACTOR: '100' });
  const q = async <T>(text: string): Promise<T> => (await server.db.pool.query(text)).rows[0] as T;
  const video = await q<{ id: number; sec_uid: string }>(`
    select v.id, u.sec_uid from videos v join users u on u.id = v.author_id
    where v.deleted_at is null and v.visibility = 'public' and v.status = 'published' order by v.id limit 1`);
  const room = await q<{ id: number } | undefined>(
    "select id from live_rooms where status = 'live' order by id limit 1",
  );
  const series = await q<{ id: number } | undefined>('select id from series order by id limit 1');
  ids = { video: video.id, secUid: video.sec_uid, room: room?.id ?? 1, series: series?.id ?? 1 };
  // A member of their own, whose nickname no page shows for reasons of its own (no works, no danmaku).
  const user = await q<{ id: number; nickname: string }>(
    "insert into users (sec_uid, nickname, avatar) values ('page-cache-viewer', '只属于我的昵称', 'avatars/a.webp') returning id, nickname",
  );
  token = (await createSession(user.id)).token;
  nickname = user.nickname;
}, 180_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

/** Every page route, with the ids of the seed. */
function routes(): string[] {
  return [
    '/',
    '/discover',
    '/hot',
    '/live',
    '/follow',
    '/friend',
    `/video/${ids.video}`,
    `/user/${ids.secUid}`,
    '/user/self',
    '/channel/300201',
    `/live/${ids.room}`,
    '/vs',
    `/vs/${ids.series}`,
    '/post',
    '/post/manage',
    '/post/data',
    '/about',
    '/faq',
    '/settings',
    '/no-such-page',
  ];
}

describe('page headers', () => {
  it('anonymous: public with s-maxage and stale-while-revalidate, a strong ETag, 304 on If-None-Match, UTF-8', async () => {
    for (const path of routes()) {
      const first = await get(path, { 'accept-encoding': 'br' });
      expect([200, 404], path).toContain(first.status);
      expect(first.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(first.headers['cache-control'], path).toMatch(SHARED);
      expect(first.headers.vary, path).toMatch(/Accept-Encoding/);
      // A page of public content is one HTML for every viewer: it does not vary on the session.
      if (isPersonalPage(path)) expect(first.headers.vary, path).toMatch(/Cookie/);
      else expect(first.headers.vary, path).not.toMatch(/Cookie|Token/);
      expect(first.headers.etag, path).toMatch(/^"[\w-]+"$/);
      expect(first.headers['content-security-policy'], path).toMatch(/script-src/);
      expect(first.headers['x-frame-options'], path).toBe('DENY');
      if (first.status === 200) {
        const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
        expect(again.status, path).toBe(304);
        expect(again.headers.etag, path).toBe(first.headers.etag);
      }
    }
  });

  it('logged in: the shared page of public content, and private, no-store pages about the viewer, with the same security headers', async () => {
    for (const path of routes()) {
      const shared = await get(path);
      for (const headers of [{ cookie: `sy_session=${token}` }, { token }] as Record<string, string>[]) {
        const mine = await get(path, headers);
        expect([200, 404], path).toContain(mine.status);
        expect(mine.headers['content-type'], path).toBe('text/html; charset=utf-8');
        if (isPersonalPage(path)) {
          expect(mine.headers['cache-control'], path).toBe(PERSONAL);
          expect(mine.headers.etag, path).toBeUndefined();
        } else {
          expect(mine.headers['cache-control'], path).toMatch(SHARED);
          expect(mine.headers.etag, path).toBe(shared.headers.etag);
          expect(mine.body, path).not.toContain(nickname);
        }
        for (const name of [
          'content-security-policy',
          'x-frame-options',
          'x-content-type-options',
          'referrer-policy',
          'permissions-policy',
          'cross-origin-opener-policy',
        ]) {
          expect(mine.headers[name], `${path} ${name}`).toBe(shared.headers[name]);
        }
      }
    }
  });

  it('search results are never shared: each visit is a logged search', async () => {
    const res = await get(`/search/${encodeURIComponent('音乐')}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(PERSONAL);
    expect(res.headers.etag).toBeUndefined();
  });

  it('the hashed assets go out precompressed, immutable', async () => {
    const page = await get('/');
    const script = page.body.match(/\/_astro\/[\w.-]+\.js/)?.[0];
    expect(script).toBeTruthy();
    const br = await get(script!, { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get(script!);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.body));
  });
});

describe('what the shared cache holds', () => {
  it('a new comment shows on the anonymous video page within the stated lifetime', async () => {
    // The page carries the comment count; the comments themselves it loads from the comment list once the player wakes.
    const path = `/video/${ids.video}`;
    const total = (body: string) => Number(/data-comment-total="">（(?:<!-- -->)?(\d+)/.exec(body)?.[1] ?? NaN);
    const first = await get(path);
    expect(first.headers['cache-control']).toMatch(SHARED);
    const before = total(first.body);
    expect(before).toBeGreaterThanOrEqual(0);
    const text = `缓存里的新评论 ${Date.now()}`;
    const posted = await fetch(`${server.base}/api/aweme/v1/web/comment/publish`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
      body: new URLSearchParams({ aweme_id: String(ids.video), text }),
    });
    expect(posted.status).toBe(200);
    expect(((await posted.json()) as { status_code: number }).status_code).toBe(0);
    const list = `/api/aweme/v1/web/comment/list/?aweme_id=${ids.video}&cursor=0&count=20`;
    const started = Date.now();
    let counted = false;
    let listed = false;
    while (!(counted && listed) && Date.now() - started <= PAGE_FRESH_MS) {
      counted ||= total((await get(path)).body) === before + 1;
      listed ||= (await get(list)).body.includes(text);
      if (!(counted && listed)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(counted, `the count ${before + 1} within ${PAGE_FRESH_MS} ms`).toBe(true);
    expect(listed, `the comment in the list the page loads within ${PAGE_FRESH_MS} ms`).toBe(true);
  });

  it('a write only its author sees keeps the shared pages; a comment refreshes them', async () => {
    /** POSTs a form as the logged-in viewer; the envelope must say it succeeded. */
    const post = async (api: string, form: Record<string, string> = {}) => {
      const answer = await fetch(`${server.base}/api${api}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
        body: new URLSearchParams(form),
      });
      expect(answer.status, api).toBe(200);
    };
    /**
     * Whether the shared copy of `path` is re-rendered within 2 s: a render stored after the write answers `age: 0`,
     * while the copy stored before it is at least a second old by then.
     */
    const rerendered = async (path: string) => {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        const got = await get(path);
        expect(got.headers['cache-control']).toMatch(SHARED);
        if (Number(got.headers.age) === 0) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };
    const stored = async (path: string) => {
      await get(path);
      expect(Number((await get(path)).headers.age)).toBe(0);
      await new Promise((r) => setTimeout(r, 1_100));
    };

    const path = `/discover?from=own-writes-${Date.now()}`;
    await stored(path);
    await post('/aweme/v1/web/notice/read/');
    await post('/aweme/v1/web/history/write/', { aweme_id: String(ids.video), progress: '1500' });
    await post('/aweme/v1/web/aweme/watchlater/add/', { aweme_id: String(ids.video) });
    await post('/video/myLikeVideos', { page: '1', size: '5' });
    expect(await rerendered(path), 'read marks, progress, 稍后再看 and a POSTed read keep the shared copy').toBe(false);

    const other = `/discover?from=shared-write-${Date.now()}`;
    await stored(other);
    await post('/aweme/v1/web/comment/publish', { aweme_id: String(ids.video), text: `刷新共享页 ${Date.now()}` });
    expect(await rerendered(other), 'a comment makes the shared copy stale, and the next visit refreshes it').toBe(
      true,
    );
  });

  it('a member’s visit never puts anything of theirs in the shared cache, and their own pages stay theirs', async () => {
    // A page nobody anonymous asked for yet: the first render of it comes from the member's visit.
    const path = `/user/${ids.secUid}?showTab=post&from=member-first`;
    const mine = await get(path, { cookie: `sy_session=${token}` });
    expect(mine.headers['cache-control']).toMatch(SHARED);
    expect(mine.body).not.toContain(nickname);
    const anonymous = await get(path);
    expect(anonymous.headers['cache-control']).toMatch(SHARED);
    expect(anonymous.headers.etag).toBe(mine.headers.etag);
    expect(anonymous.body).not.toContain(nickname);
    // A page about the viewer is rendered for them alone; a visitor's copy of it knows nobody.
    const own = await get('/user/self?from=member-first', { cookie: `sy_session=${token}` });
    expect(own.headers['cache-control']).toBe(PERSONAL);
    expect(own.body).toContain(nickname);
    const visitor = await get('/user/self?from=member-first');
    expect(visitor.body).not.toContain(nickname);
  });

  it('a stale session cookie gets the shared page of public content, and the anonymous page about the viewer for itself', async () => {
    const path = '/discover?from=stale-cookie';
    const stale = await get(path, { cookie: 'sy_session=not-a-session-any-more' });
    expect(stale.status).toBe(200);
    expect(stale.headers['cache-control']).toMatch(SHARED);
    const shared = await get(path);
    expect(shared.headers.etag).toBe(stale.headers.etag);
    const own = await get('/follow?from=stale-cookie', { cookie: 'sy_session=not-a-session-any-more' });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe(PERSONAL);
    expect(own.headers.etag).toBeUndefined();
    expect(own.body).not.toContain(LOGGED_IN_MARK);
  });
});
