/**
 * 闪映's service worker (issue 7, 快捷访问 → 添加到桌面): makes the site installable and keeps the shell usable offline.
 * Pages always come from the network (they carry the viewer's login, so none is kept on the device); without a
 * network the cached /offline shell answers. Built assets (/_astro/, content-hashed) and icons: cache first.
 * The API, media (Range requests) and event streams are never touched.
 */
const VERSION = 'v1';
const SHELL = `shell-${VERSION}`;
const OFFLINE_URL = '/offline';
const PRECACHE = [OFFLINE_URL, '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(PRECACHE);
      // The offline page's own styles and scripts, so it renders styled when the network is gone.
      const html = await (await cache.match(OFFLINE_URL)).text();
      // The chrome parts (data-parts) too; an icon's address names the sprite and a symbol (#name): the file once.
      const assets = [...html.matchAll(/(?:href|src|data-parts)="(\/(?:_astro|chrome)\/[^"#]+)/g)].map((m) => m[1].replaceAll('&amp;', '&'));
      await cache.addAll([...new Set(assets)]).catch(() => {});
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL]);
      for (const key of await caches.keys()) if (!keep.has(key)) await caches.delete(key);
      // The page request starts while the worker boots, so being installed never slows a navigation down.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

async function page(event) {
  try {
    return (await event.preloadResponse) ?? (await fetch(event.request));
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL);
    if (offline) return offline;
    throw error;
  }
}

async function asset(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    const cache = await caches.open(SHELL);
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') return event.respondWith(page(event));
  if (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/icons/') || url.pathname === '/favicon.svg' || url.pathname === '/chrome/parts') {
    event.respondWith(asset(request));
  }
});
