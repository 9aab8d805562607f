/** Every page route of src/pages, for the checks that go over them all (the phone's sideways scroll, axe). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';

/** The page routes of src/pages as their files name them ('/', '/video/[id]'), sorted; partials (fragments of a page) are not pages. */
export function routePatterns(): string[] {
  const root = path.resolve('src/pages');
  const routes: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (rel !== 'api') walk(file);
      } else if (entry.name.endsWith('.astro') && !/^export const partial = true;$/m.test(readFileSync(file, 'utf8')))
        routes.push(`/${rel.replace(/\.astro$/, '').replace(/(^|\/)index$/, '')}`);
    }
  };
  walk(root);
  return routes.sort();
}

/** Each route pattern → a URL, its dynamic segment filled with a real id of the seeded data. */
export async function routeUrls(api: APIRequestContext): Promise<Map<string, string>> {
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=1&refresh_index=1')).json();
  const aweme = feed.aweme_list[0];
  const idOf = async (listPath: string, pattern: RegExp) =>
    (await (await api.get(listPath)).text()).match(pattern)?.[1];
  const ids: Record<string, string | undefined> = {
    // Staff pages: the site's 404 to everyone these specs log in as.
    '/admin/content/[collection]/[id]': '/admin/content/channels/300204',
    '/admin/reports/[type]/[id]': `/admin/reports/video/${aweme.aweme_id}`,
    '/channel/[id]': '/channel/300204',
    '/live/[id]': `/live/${await idOf('/live', /href="\/live\/(\d+)"/)}`,
    '/search/[keyword]': '/search/美食',
    '/user/[id]': `/user/${aweme.author.sec_uid}`,
    '/video/[id]': `/video/${aweme.aweme_id}`,
    '/vs/[id]': `/vs/${await idOf('/vs', /href="\/vs\/(\d+)"/)}`,
    '/collection/[id]': `/collection/${await idOf('/vs', /href="\/collection\/(\d+)"/)}`,
  };
  const urls = new Map<string, string>();
  for (const route of routePatterns()) {
    if (route.includes('[')) {
      expect(ids[route], `an id for ${route}`).toMatch(/^\/[^[]*[^/]$/);
      urls.set(route, ids[route]!);
    } else urls.set(route, route);
  }
  return urls;
}

/** Every page route of src/pages, its dynamic segments filled with real ids of the seeded data, sorted. */
export async function pageRoutes(api: APIRequestContext): Promise<string[]> {
  return [...(await routeUrls(api)).values()].sort();
}
