/**
 * The staff pages' fence, on the production server over a real database: every page under src/pages/admin (found by
 * walking the folder, so a new page cannot be left out) is the site's 404 to a visitor and to a member, the
 * re-authentication form (401) to staff whose last authentication is over 15 minutes old, and the page itself (200)
 * once that session re-authenticates; every one of those answers is personal (`private, no-store`) and noindex.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { hashPassword } from '../../src/server/services/password.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { grantRole } from '../../src/server/staff/roles.ts';
import { startBuiltServer, type BuiltServer } from '../hardening/built-server.ts';

const ADMIN_PAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/pages/admin');
const PASSWORD = 'staff-pages-42';
/** The re-authentication form as the server renders it. */
const REAUTH_FORM = new RegExp(`<form[^>]*aria-label="${t('staff.reauth.title')}"`);

/** The route of every .astro file under src/pages/admin, as its path names it ('/admin/reports/[type]/[id]'). */
function adminRoutes(dir = ADMIN_PAGES, prefix = '/admin'): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isDirectory()) return adminRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      if (!entry.name.endsWith('.astro')) return [];
      const name = entry.name.replace(/\.astro$/, '');
      return [name === 'index' ? prefix : `${prefix}/${name}`];
    })
    .sort();
}

let server: BuiltServer;
let adminId: number;
let memberCookie: string;
/** A real id for each dynamic route: an entry that exists, a target with an open report. */
let filled: Record<string, string>;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_IP_FACTOR: '100' });
  const q = async <T>(text: string, values: unknown[] = []): Promise<T> =>
    (await server.db.pool.query(text, values)).rows[0] as T;
  const [admin, member, reporter] = [
    await q<{ id: number }>('select id from users order by id offset 3 limit 1'),
    await q<{ id: number }>('select id from users order by id offset 4 limit 1'),
    await q<{ id: number }>('select id from users order by id offset 5 limit 1'),
  ];
  adminId = admin.id;
  await grantRole(null, adminId, 'admin');
  await server.db.pool.query('update users set password_hash = $1 where id = $2', [
    await hashPassword(PASSWORD),
    adminId,
  ]);
  memberCookie = `sy_session=${(await createSession(member.id)).token}`;
  const comment = await q<{ id: number }>(
    'select id from comments where deleted_at is null and parent_id is null order by id limit 1',
  );
  await server.db.pool.query(
    "insert into reports (reporter_id, target_type, target_id, reason) values ($1, 'comment', $2, 'spam')",
    [reporter.id, comment.id],
  );
  filled = {
    '/admin/content/[collection]/[id]': '/admin/content/channels/300204',
    '/admin/reports/[type]/[id]': `/admin/reports/comment/${comment.id}`,
  };
}, 180_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

interface Got {
  status: number;
  headers: Headers;
  body: string;
}

async function get(url: string, cookie?: string): Promise<Got> {
  const res = await fetch(`${server.base}${url}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** A session of the admin whose authentication is `minutes` old. */
async function adminSession(minutes: number): Promise<string> {
  const { token } = await createSession(adminId);
  await server.db.pool.query(
    `update sessions set authenticated_at = now() - make_interval(mins => $1)
      where token_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex')`,
    [minutes, token],
  );
  return token;
}

function expectPersonalNoindex(got: Got, where: string): void {
  expect(got.headers.get('cache-control'), where).toBe('private, no-store');
  expect(got.headers.get('x-robots-tag'), where).toMatch(/\bnoindex\b/);
  expect(got.headers.get('etag'), where).toBeNull();
}

const ROUTES = adminRoutes();
const urlOf = (route: string) => (route.includes('[') ? filled[route] : route);

it('finds every staff page, and has a real id for each dynamic one', () => {
  expect(ROUTES).toEqual(expect.arrayContaining(['/admin', '/admin/reports/[type]/[id]']));
  for (const route of ROUTES.filter((r) => r.includes('['))) expect(filled[route], route).toMatch(/^\/admin\/[^[]+$/);
});

describe.each(ROUTES)('%s', (route) => {
  it('is the site’s 404 to a visitor and to a member, personal and noindex', async () => {
    const notFound = await get('/admin/no-such-page', memberCookie);
    expect(notFound.status).toBe(404);
    const title = notFound.body.match(/<title>[^<]*<\/title>/)?.[0];
    for (const [who, cookie] of [
      ['visitor', undefined],
      ['member', memberCookie],
    ] as const) {
      const got = await get(urlOf(route)!, cookie);
      expect(got.status, `${route} ${who}`).toBe(404);
      expectPersonalNoindex(got, `${route} ${who}`);
      expect(got.body.match(/<title>[^<]*<\/title>/)?.[0], `${route} ${who}`).toBe(title);
      expect(got.body, `${route} ${who}`).not.toContain(t('staff.nav'));
      expect(got.body, `${route} ${who}`).not.toContain(t('staff.reauth.title'));
    }
  });

  it('asks staff to re-authenticate (401) when the last authentication is over 15 minutes old, then shows the page', async () => {
    const token = await adminSession(16);
    const cookie = `sy_session=${token}`;
    const stale = await get(urlOf(route)!, cookie);
    expect(stale.status, stale.body.slice(0, 300)).toBe(401);
    expectPersonalNoindex(stale, route);
    expect(stale.body).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(stale.body).toMatch(REAUTH_FORM);
    expect(stale.body).toContain(t('staff.reauth.password'));
    expect(stale.body).toContain('type="password"');

    const reauth = await fetch(`${server.base}/api/admin/reauth`, {
      method: 'POST',
      headers: { token, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: PASSWORD }),
    });
    expect(reauth.status, await reauth.clone().text()).toBe(200);
    const fresh = await get(urlOf(route)!, cookie);
    expect(fresh.status, fresh.body.slice(0, 300)).toBe(200);
    expectPersonalNoindex(fresh, route);
    expect(fresh.body).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(fresh.body).toContain(t('staff.nav'));
    expect(fresh.body).not.toMatch(REAUTH_FORM);
  });
});
