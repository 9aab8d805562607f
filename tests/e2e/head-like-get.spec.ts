/**
 * HEAD is answered exactly as GET, door by door: the same Cache-Control and ETag for a copy that is fresh, one that a
 * write has just made stale, and one that no one has asked for yet. A monitor or a CDN probing with HEAD sees what a
 * browser's GET gets.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, newAccount, test } from './support.ts';

let api: APIRequestContext;
let videoId: string;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=12')).json();
  videoId = feed.aweme_list[9].aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

const BR = { 'accept-encoding': 'br' };

/** HEAD, then GET, of `path`: their Cache-Control, ETag and Vary. */
async function headThenGet(path: string, headers: Record<string, string> = BR) {
  const head = await api.head(path, { headers });
  const get = await api.get(path, { headers });
  const pick = (h: Record<string, string>) => ({ cache: h['cache-control'], etag: h.etag, vary: h.vary });
  expect(head.status(), `HEAD ${path}`).toBe(get.status());
  expect(await head.body(), `HEAD ${path} has no body`).toHaveLength(0);
  return { head: pick(head.headers()), get: pick(get.headers()) };
}

test('pages from the shared cache: HEAD on a copy no one has asked for, a fresh one and one a write made stale', async () => {
  const path = `/video/${videoId}?from=head-test-${Date.now()}`;
  const missed = await headThenGet(path);
  expect(missed.head.cache).toMatch(/^public, /);
  expect(missed.head.etag).toMatch(/^"/);
  expect(missed.head).toEqual(missed.get);

  const fresh = await headThenGet(path);
  expect(fresh.head).toEqual(fresh.get);
  expect(fresh.head.etag).toBe(missed.get.etag);

  // A like on the video makes its page stale at once: the HEAD revalidates as a GET would, and the GET gets that copy.
  const liker = await newAccount(api, 'head-like');
  const liked = await api.post('/api/aweme/v1/web/commit/item/digg/', {
    form: { aweme_id: videoId, type: 1 },
    headers: { token: liker.token },
  });
  expect(liked.status()).toBe(200);
  const stale = await headThenGet(path);
  expect(stale.head).toEqual(stale.get);
  expect(stale.head.etag).not.toBe(fresh.get.etag);
});

test('a member’s HEAD of a shared page is the visitor’s, and of a page about the viewer the GET’s', async () => {
  const member = await newAccount(api, 'head-member');
  const cookie = { ...BR, cookie: `sy_session=${member.token}` };
  const shared = await headThenGet('/discover', cookie);
  expect(shared.head).toEqual(shared.get);
  expect(shared.head.cache).toMatch(/^public, /);
  const own = await headThenGet('/user/self', cookie);
  expect(own.head.cache).toBe('private, no-store');
  expect(own.head).toEqual(own.get);
});

test('prerendered pages, the chrome parts and media: HEAD gives GET’s Cache-Control and ETag', async () => {
  const parts = /data-parts="([^"]+)"/.exec(await (await api.get('/discover')).text())?.[1];
  expect(parts).toBeTruthy();
  const detail = await (await api.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${videoId}`)).json();
  const poster = new URL(detail.aweme_detail.video.cover.url_list[0], 'http://x').pathname;
  for (const path of ['/about', parts!.replaceAll('&amp;', '&'), poster]) {
    const { head, get } = await headThenGet(path);
    expect(head, path).toEqual(get);
    expect(get.cache, path).toBeTruthy();
  }
});

test('anonymous API reads from their cache: HEAD gives GET’s Cache-Control and ETag', async () => {
  const path = `/api/aweme/v1/web/aweme/detail/?aweme_id=${videoId}`;
  const { head, get } = await headThenGet(path);
  expect({ cache: head.cache, etag: head.etag }).toEqual({ cache: get.cache, etag: get.etag });
});
