/**
 * The page door on a real node:http server with the compression middleware, in front of a stand-in for Astro that
 * answers the way Astro's adapter does (writeHead with its headers, then the HTML in chunks) and counts its renders.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import compression from 'compression';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anonymousContentChanged } from '../cache/anonymous-content.ts';
import { memberWrote } from '../cache/member-writes.ts';
import { PAGE_FRESH_MS, PageCache } from '../cache/page-cache.ts';
import {
  createPageAnswers,
  matchesEtag,
  pageKey,
  PERSONAL_PAGE_CACHE_CONTROL,
  SHARED_PAGE_CACHE_CONTROL,
  type PageAnswers,
} from './page-answers.ts';
import { contextOfNode } from './request-context.ts';
import { applySecurityHeaders } from './security-headers.ts';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
const compress = compression() as unknown as Middleware;
const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-abc'";

/** Sessions that name a member, and whose; any other token is a session that names nobody. */
const MEMBERS: Record<string, number> = { alice: 1, bob: 2 };

let renders = 0;
let version = 'v1';
let delayMs = 0;
/** A cookie every page sets while this is true. */
let setsCookie = false;

/** Astro's part: the page for whoever asks (a token makes it personal), written as the adapter writes a Response. */
function fakeAstro(req: IncomingMessage, res: ServerResponse): void {
  renders++;
  const url = new URL(req.url ?? '/', 'http://x');
  // Under /post (a page about the viewer), the same stand-ins as at the top.
  const page = url.pathname.replace(/^\/post(?=\/)/, '');
  const token = String(req.headers.token ?? '');
  const viewer = MEMBERS[token]
    ? token
    : token || /sy_session=/.test(req.headers.cookie ?? '')
      ? 'someone'
      : 'anonymous';
  const headers: Record<string, string> = { 'content-type': 'text/html', 'content-security-policy': PAGE_CSP };
  let status = 200;
  if (page === '/sets-cookie' || setsCookie) headers['set-cookie'] = 'x=1; Path=/';
  if (page === '/private') headers['cache-control'] = 'private, no-store';
  if (page === '/immutable') headers['cache-control'] = 'public, max-age=31536000, immutable';
  if (page === '/broken') status = 500;
  if (page === '/missing') status = 404;
  if (page === '/moved') {
    res.writeHead(302, { location: '/' });
    return void res.end();
  }
  if (page === '/style.css') {
    res.writeHead(200, { 'content-type': 'text/css' });
    return void res.end('body{}'.repeat(300));
  }
  const html = `<!doctype html><html><body><p>${viewer} ${version} ${url.search}</p>${'<i>闪映</i>'.repeat(200)}</body></html>`;
  setTimeout(() => {
    res.writeHead(status, headers);
    // In two chunks, as a streamed render arrives.
    res.write(Buffer.from(html.slice(0, 100)));
    res.write(html.slice(100));
    res.end();
  }, delayMs);
}

let pages: PageAnswers;
const clock = { now: 1_000_000 };
let server: http.Server;
let base: string;

beforeAll(async () => {
  pages = createPageAnswers({
    enabled: true,
    cache: new PageCache({ now: () => clock.now }),
    own: new PageCache({ staleMs: 0, now: () => clock.now }),
    now: () => clock.now,
    member: (token) => Promise.resolve(MEMBERS[token] ?? null),
  });
  server = http.createServer((req, res) => {
    const context = contextOfNode(req);
    applySecurityHeaders(context, res);
    pages.answer(context, req, res, (rq, rs, prepare) =>
      compress(rq, rs, () => {
        prepare(rs);
        fakeAstro(rq, rs);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  pages.cache.clear();
  pages.own.clear();
  renders = 0;
  version = 'v1';
  delayMs = 0;
  setsCookie = false;
});

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers (fetch would add Accept-Encoding and decode). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('an anonymous page', () => {
  it('is rendered once, then answered from the cache with the shared headers, a strong ETag and the page own headers', async () => {
    const first = await get('/video/1');
    const second = await get('/video/1');
    expect(renders).toBe(1);
    for (const got of [first, second]) {
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(got.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(got.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
      expect(got.headers.vary).toBe('Accept-Encoding');
      expect(got.headers.etag).toMatch(/^"[\w-]{27}"$/);
      // The page's own policy, and the door's headers on every answer.
      expect(got.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['x-frame-options']).toBe('DENY');
      expect(got.body.toString()).toContain('anonymous v1');
      expect(Number(got.headers['content-length'])).toBe(got.body.byteLength);
    }
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body.equals(first.body)).toBe(true);
  });

  it('answers 304 to If-None-Match with its ETag, and 200 with the page once it changed', async () => {
    const first = await get('/video/2', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.etag).toMatch(/-br"$/);
    const again = await get('/video/2', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    version = 'v2';
    pages.cache.clear();
    const changed = await get('/video/2', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(changed.status).toBe(200);
    expect(brotliDecompressSync(changed.body).toString()).toContain('anonymous v2');
  });

  it('goes out in the encoding asked for, each compressed from the same HTML', async () => {
    const plain = await get('/discover');
    const br = await get('/discover', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/discover', { 'accept-encoding': 'gzip' });
    expect(renders).toBe(1);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it('is one page whatever the order of its query', async () => {
    await get('/user/a?showTab=like&x=1');
    const same = await get('/user/a?x=1&showTab=like');
    expect(renders).toBe(1);
    expect(same.body.toString()).toContain('?showTab=like&amp;x=1'.replace('&amp;', '&'));
    await get('/user/a?showTab=post');
    expect(renders).toBe(2);
  });

  it('answers HEAD exactly as GET: a miss renders the page for the cache, and the GET after it is that copy', async () => {
    const head = await get('/hot', { 'accept-encoding': 'br' }, 'HEAD');
    const page = await get('/hot', { 'accept-encoding': 'br' });
    expect(renders).toBe(1);
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    for (const name of ['cache-control', 'etag', 'vary', 'content-type', 'content-encoding', 'content-length']) {
      expect(head.headers[name], name).toBe(page.headers[name]);
    }
    expect(head.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    const conditional = await get('/hot', { 'accept-encoding': 'br', 'if-none-match': page.headers.etag! }, 'HEAD');
    expect(conditional.status).toBe(304);
  });

  it('revalidates on a HEAD as on a GET once stale: the HEAD renders the new copy, and its ETag is the next GET', async () => {
    const old = await get('/hot/stale');
    version = 'v2';
    clock.now += 6_000;
    const head = await get('/hot/stale', {}, 'HEAD');
    expect(renders).toBe(2);
    const page = await get('/hot/stale');
    expect(renders).toBe(2);
    expect(page.body.toString()).toContain('v2');
    expect(head.headers.etag).toBe(page.headers.etag);
    expect(head.headers.etag).not.toBe(old.headers.etag);
    expect(head.headers['cache-control']).toBe(page.headers['cache-control']);
  });

  it('is rendered once for many visitors arriving together', async () => {
    delayMs = 50;
    const all = await Promise.all(Array.from({ length: 12 }, () => get('/live', { 'accept-encoding': 'br' })));
    expect(renders).toBe(1);
    expect(new Set(all.map((g) => g.body.toString('base64'))).size).toBe(1);
    expect(all.every((g) => g.status === 200 && g.headers['content-encoding'] === 'br')).toBe(true);
  });

  it('once stale, is handed out while exactly one visitor renders the new one', async () => {
    await get('/channel/1');
    version = 'v2';
    clock.now += 6_000;
    delayMs = 80;
    const all = await Promise.all(Array.from({ length: 8 }, () => get('/channel/1')));
    expect(renders).toBe(2);
    const bodies = all.map((g) => g.body.toString());
    expect(bodies.filter((b) => b.includes('v2'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('v1'))).toHaveLength(7);
    // The stale copies say how old they are.
    expect(all.some((g) => Number(g.headers.age) >= 6)).toBe(true);
    const after = await get('/channel/1');
    expect(after.body.toString()).toContain('v2');
    expect(renders).toBe(2);
    clock.now += 40_000;
  });

  it('is refreshed by the next visitor after a write to it in this process', async () => {
    await get('/video/3');
    version = 'v2';
    anonymousContentChanged([3]);
    await get('/video/3');
    expect(renders).toBe(2);
    expect((await get('/video/3')).body.toString()).toContain('v2');
    expect(renders).toBe(2);
  });

  it('shows a write to something else once it is a second old', async () => {
    await get('/hot');
    version = 'v2';
    anonymousContentChanged([3]);
    expect((await get('/hot')).body.toString()).toContain('v1');
    clock.now += 1_000;
    await get('/hot');
    expect(renders).toBe(2);
    expect((await get('/hot')).body.toString()).toContain('v2');
    clock.now += 40_000;
  });

  it.each([
    ['sets a cookie', '/sets-cookie', 200],
    ['forbids caching itself', '/private', 200],
    ['failed', '/broken', 500],
    ['is a redirect', '/moved', 302],
  ])('is never kept when its render %s', async (_, path, status) => {
    const first = await get(path);
    const second = await get(path);
    expect(first.status).toBe(status);
    expect(renders).toBe(2);
    expect(second.headers.etag).toBeUndefined();
    if (path !== '/private')
      expect(first.headers['cache-control']).toBe(path === '/moved' ? undefined : PERSONAL_PAGE_CACHE_CONTROL);
    else expect(first.headers['cache-control']).toBe('private, no-store');
  });

  it('leaves an answer that says it is immutable at its address with its own Cache-Control, with a session or without', async () => {
    for (const headers of [{}, { token: 't' }] as Record<string, string>[]) {
      const got = await get('/immutable', headers);
      expect(got.status).toBe(200);
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('keeps the page of something missing (404) but never answers it with 304', async () => {
    const first = await get('/missing');
    const second = await get('/missing', { 'if-none-match': first.headers.etag! });
    expect(renders).toBe(1);
    expect(second.status).toBe(404);
    expect(second.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
  });

  it('leaves answers that are not HTML as they come', async () => {
    const css = await get('/style.css', { 'accept-encoding': 'gzip' });
    expect(css.headers['content-type']).toBe('text/css');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['cache-control']).toBeUndefined();
    expect(css.headers.etag).toBeUndefined();
  });
});

describe('a page of public content asked for by a member', () => {
  it.each([
    ['the session cookie', { cookie: 'theme=dark; sy_session=abc' }],
    ['the HTTPS session cookie', { cookie: '__Host-sy_session=abc; theme=dark' }],
    ['the Token header', { token: 'abc' }],
  ])('with %s is the visitor page from the shared cache: its render never sees the session', async (_, headers) => {
    const member = await get('/video/7', headers);
    const visitor = await get('/video/7');
    expect(renders).toBe(1);
    for (const got of [member, visitor]) {
      expect(got.body.toString()).toContain('anonymous v1');
      expect(got.body.toString()).not.toContain('someone');
      expect(got.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(got.headers.vary).toBe('Accept-Encoding');
    }
    expect(member.headers.etag).toBe(visitor.headers.etag);
    // The other way round: a visitor's copy answers the member.
    await get('/discover');
    const later = await get('/discover', headers);
    expect(renders).toBe(2);
    expect(later.body.toString()).toContain('anonymous');
  });

  it('renders the page of a work hidden from visitors for the member who asks, and shares every other one', async () => {
    const asked: string[] = [];
    const local = createPageAnswers({
      enabled: true,
      cache: new PageCache(),
      hidden: (path) =>
        path.startsWith('/video/') ? (asked.push(path), Promise.resolve(path === '/video/7')) : undefined,
    });
    const srv = http.createServer((req, res) =>
      local.answer(contextOfNode(req), req, res, (rq, rs, prepare) => {
        prepare(rs);
        fakeAstro(rq, rs);
      }),
    );
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const at = (path: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${(srv.address() as AddressInfo).port}${path}`, { headers });
    try {
      const hiddenWork = await at('/video/7', { token: 't' });
      expect(await hiddenWork.text()).toContain('someone');
      expect(hiddenWork.headers.get('cache-control')).toBe(PERSONAL_PAGE_CACHE_CONTROL);
      // A visitor is not asked about: the shared copy (the page's 404, for a real hidden work) answers.
      expect(await (await at('/video/7')).text()).toContain('anonymous');
      const publicWork = await at('/video/8', { token: 't' });
      expect(await publicWork.text()).toContain('anonymous');
      expect(publicWork.headers.get('cache-control')).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(await (await at('/discover', { token: 't' })).text()).toContain('anonymous');
      expect(asked).toEqual(['/video/7', '/video/8']);
    } finally {
      await new Promise((resolve) => srv.close(resolve));
    }
  });

  it('keeps the cookies that are not the session for its render', async () => {
    let seen: string | undefined;
    const local = createPageAnswers({ enabled: true, cache: new PageCache() });
    const srv = http.createServer((req, res) =>
      local.answer(contextOfNode(req), req, res, (rq, rs, prepare) => {
        seen = rq.headers.cookie;
        prepare(rs);
        fakeAstro(rq, rs);
      }),
    );
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    try {
      await fetch(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/vs`, {
        headers: { cookie: 'theme=dark; sy_session=abc; a=b', token: 't' },
      });
      expect(seen).toBe('theme=dark; a=b');
    } finally {
      await new Promise((resolve) => srv.close(resolve));
    }
  });
});

describe('a page about the viewer for a request with a session', () => {
  it.each([
    ['the session cookie', { cookie: 'theme=dark; sy_session=abc' }],
    ['the Token header', { token: 'abc' }],
  ])('with %s is rendered for it every time, private, and never lands in the shared cache', async (_, headers) => {
    const mine = await get('/follow', headers);
    const again = await get('/follow', headers);
    expect(renders).toBe(2);
    for (const got of [mine, again]) {
      expect(got.body.toString()).toContain('someone');
      expect(got.headers['cache-control']).toBe(PERSONAL_PAGE_CACHE_CONTROL);
      expect(got.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(got.headers.etag).toBeUndefined();
      expect(got.headers['content-security-policy']).toBe(PAGE_CSP);
    }
    const anonymous = await get('/follow');
    expect(anonymous.body.toString()).toContain('anonymous');
    expect(anonymous.body.toString()).not.toContain('someone');
    expect(anonymous.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    // The visitor's copy of a page about the viewer is not for a member: a cache in front keeps them apart.
    expect(anonymous.headers.vary).toBe('Accept-Encoding, Cookie, Token');
    expect(pages.cache.stats().entries).toBe(1);
  });

  it('goes out whole, compressed once in the encoding asked for, with its length', async () => {
    const br = await get('/follow', { cookie: 'sy_session=abc', 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['transfer-encoding']).toBeUndefined();
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(brotliDecompressSync(br.body).toString()).toContain('<p>someone v1 </p>');
    expect(br.headers['cache-control']).toBe(PERSONAL_PAGE_CACHE_CONTROL);
    const plain = await get('/follow', { cookie: 'sy_session=abc' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.byteLength);
    expect(plain.body.toString()).toContain('<p>someone v1 </p>');
  });

  it('keeps its own status, and a redirect or a file goes out as it comes', async () => {
    const missing = await get('/post/missing', { cookie: 'sy_session=abc', 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(brotliDecompressSync(missing.body).toString()).toContain('someone');
    const moved = await get('/post/moved', { cookie: 'sy_session=abc' });
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe('/');
    const css = await get('/post/style.css', { cookie: 'sy_session=abc', 'accept-encoding': 'br' });
    expect(css.headers['content-type']).toBe('text/css');
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-length']).toBeUndefined();
  });

  it('is not answered from the shared cache either', async () => {
    await get('/friend');
    const mine = await get('/friend', { cookie: 'sy_session=abc' });
    expect(mine.body.toString()).toContain('someone');
    expect(renders).toBe(2);
  });

  it('answers a HEAD with the headers its GET gets', async () => {
    const head = await get('/user/self', { cookie: 'sy_session=abc' }, 'HEAD');
    const page = await get('/user/self', { cookie: 'sy_session=abc' });
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['cache-control']).toBe(page.headers['cache-control']);
    expect(head.headers.etag).toBeUndefined();
    expect(page.headers.etag).toBeUndefined();
  });

  it('other cookies alone leave a request anonymous', async () => {
    await get('/about');
    const other = await get('/about', { cookie: 'theme=dark; sy_sessionx=1' });
    expect(renders).toBe(1);
    expect(other.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
  });
});

describe('a page about the member, kept for them alone', () => {
  const as = (token: string, path = '/user/self', method = 'GET') =>
    get(path, { token, 'accept-encoding': 'br' }, method);
  const text = (got: Got) => brotliDecompressSync(got.body).toString();

  it('is rendered once for its member, whose visits then get that copy, private and whole; another member gets their own', async () => {
    const first = await as('alice');
    const again = await as('alice');
    expect(renders).toBe(1);
    for (const got of [first, again]) {
      expect(text(got)).toContain('<p>alice v1 </p>');
      expect(got.headers['cache-control']).toBe(PERSONAL_PAGE_CACHE_CONTROL);
      expect(got.headers.etag).toBeUndefined();
      expect(got.headers['content-encoding']).toBe('br');
      expect(Number(got.headers['content-length'])).toBe(got.body.byteLength);
      expect(got.headers['content-security-policy']).toBe(PAGE_CSP);
    }
    expect(text(await as('bob'))).toContain('<p>bob v1 </p>');
    expect(text(await as('alice', '/user/self?showTab=like'))).toContain('alice v1 ?showTab=like');
    expect(renders).toBe(3);
    // Nothing of theirs in the shared cache, and a visitor is answered their own page.
    expect(pages.cache.stats().entries).toBe(0);
    expect((await get('/user/self')).body.toString()).toContain('anonymous');
  });

  it('goes at once when its member writes, not when another does', async () => {
    await as('alice');
    version = 'v2';
    memberWrote(2);
    expect(text(await as('alice'))).toContain('alice v1');
    memberWrote(1);
    expect(text(await as('alice'))).toContain('alice v2');
    expect(renders).toBe(2);
  });

  it('is not kept when its member wrote while it was being rendered', async () => {
    delayMs = 50;
    const during = as('alice');
    await new Promise((r) => setTimeout(r, 10));
    memberWrote(1);
    await during;
    delayMs = 0;
    await as('alice');
    expect(renders).toBe(2);
  });

  it('turns stale a second after anyone’s write, and lives no longer than a shared page', async () => {
    await as('alice');
    anonymousContentChanged([]);
    clock.now += 999;
    await as('alice');
    expect(renders).toBe(1);
    clock.now += 1;
    await as('alice');
    expect(renders).toBe(2);
    clock.now += PAGE_FRESH_MS - 1;
    await as('alice');
    expect(renders).toBe(2);
    clock.now += 1;
    await as('alice');
    expect(renders).toBe(3);
  });

  it('answers every visit that waited for a render that could not be kept (it set a cookie)', async () => {
    setsCookie = true;
    delayMs = 30;
    const visits = await Promise.all([as('alice'), as('alice'), as('alice', '/user/self', 'HEAD')]);
    for (const got of visits.slice(0, 2)) expect(text(got)).toContain('<p>alice v1 </p>');
    expect(visits.map((got) => got.status)).toEqual([200, 200, 200]);
    expect(pages.own.stats().entries).toBe(0);
  });

  it('answers a HEAD as its GET, and keeps nothing for a session that names nobody or a page not in its list', async () => {
    const head = await as('alice', '/user/self', 'HEAD');
    const page = await as('alice');
    expect(renders).toBe(1);
    expect(head.body.byteLength).toBe(0);
    for (const name of ['cache-control', 'content-type', 'content-encoding', 'content-length', 'vary'])
      expect(head.headers[name], name).toBe(page.headers[name]);
    await as('nobody', '/follow');
    await as('nobody', '/follow');
    await as('alice', '/post/works');
    await as('alice', '/post/works');
    expect(renders).toBe(5);
    expect(pages.own.stats().entries).toBe(1);
  });
});

describe('PAGE_CACHE=off', () => {
  it('renders every anonymous visit, still with the shared headers and a working ETag', async () => {
    const off = createPageAnswers({ enabled: false, cache: new PageCache() });
    const local = http.createServer((req, res) =>
      off.answer(contextOfNode(req), req, res, (rq, rs, prepare) =>
        compress(rq, rs, () => (prepare(rs), fakeAstro(rq, rs))),
      ),
    );
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    try {
      const one = await fetch(`${at}/discover`);
      const two = await fetch(`${at}/discover`, { headers: { 'if-none-match': one.headers.get('etag')! } });
      const head = await fetch(`${at}/discover`, { method: 'HEAD' });
      expect(renders).toBe(3);
      expect(one.headers.get('cache-control')).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(two.status).toBe(304);
      expect(head.headers.get('cache-control')).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(head.headers.get('etag')).toBe(one.headers.get('etag'));
      expect(off.cache.stats().entries).toBe(0);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });
});

describe('pageKey and matchesEtag', () => {
  it('sorts the query and keeps the path as sent', () => {
    expect(pageKey('/a?b=2&a=1')).toBe('/a?a=1&b=2');
    expect(pageKey('/a?')).toBe('/a');
    expect(pageKey('/a')).toBe('/a');
    expect(pageKey(`/a?q=${'x'.repeat(3000)}`)).toBeUndefined();
  });

  it('matches any representation of the same body, and nothing else', () => {
    expect(matchesEtag('"abc"', 'abc')).toBe(true);
    expect(matchesEtag('"other", "abc-br"', 'abc')).toBe(true);
    expect(matchesEtag('W/"abc-gzip"', 'abc')).toBe(true);
    expect(matchesEtag('*', 'abc')).toBe(true);
    expect(matchesEtag('"abcd"', 'abc')).toBe(false);
    expect(matchesEtag(undefined, 'abc')).toBe(false);
  });
});
