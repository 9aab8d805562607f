/**
 * The staff API's fence: every staff route is 404 to a visitor and to a member, whatever the method; a staff session
 * older than 15 minutes is refused until it re-authenticates; a cross-origin write is refused; and each staff action
 * writes exactly one audit row.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/server/api/router.ts';
import { auditCount } from '../../src/server/staff/audit.ts';
import { grantRole } from '../../src/server/staff/roles.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { hashPassword } from '../../src/server/services/password.ts';
import { call, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const ORIGIN = 'http://shanying.test';
const staffRoutes = registeredRoutes().filter((r) => r.staff);

let member: string;
let admin: string;
let adminId: number;
let stale: string;
let memberId: number;
let commentId: number;

async function user(n: number): Promise<number> {
  const { rows } = await ctx.db.execute<{ id: number }>(sql`select id from users order by id offset ${n} limit 1`);
  return Number(rows[0]!.id);
}

beforeAll(async () => {
  memberId = await user(5);
  adminId = await user(6);
  member = (await createSession(memberId)).token;
  await grantRole(null, adminId, 'admin');
  await ctx.db.execute(
    sql`update users set password_hash = ${await hashPassword('staff-secret-42')} where id = ${adminId}`,
  );
  admin = (await createSession(adminId)).token;
  stale = (await createSession(adminId)).token;
  await ctx.db.execute(
    sql`update sessions set authenticated_at = now() - interval '16 minutes' where token_hash = encode(sha256(${stale}::bytea), 'hex')`,
  );
  const { rows } = await ctx.db.execute<{ id: number }>(
    sql`select id from comments where deleted_at is null and parent_id is null order by id limit 1`,
  );
  commentId = Number(rows[0]!.id);
});

/** A body that passes each route's input check, so that only the fence can refuse it. */
function formFor(path: string): Record<string, string | number> {
  return {
    collection: 'faq',
    id: 1,
    type: 'comment',
    user_id: 1,
    word: 'x',
    data: '{}',
    version: 1,
    days: 1,
    reason: 'r',
    role: 'editor',
    kind: 'mute',
    body: 'x',
    channel: '300204',
    ...(path.includes('reauth') ? { password: 'x' } : {}),
  };
}

describe('staff routes are hidden', () => {
  it('there are staff routes under /api/admin, and all of them are', () => {
    expect(staffRoutes.length).toBeGreaterThan(20);
    for (const r of registeredRoutes()) expect(Boolean(r.staff), r.path).toBe(r.path.startsWith('/admin/'));
  });

  it.each(staffRoutes.map((r) => [r.method, r.path] as const))(
    '%s %s is 404 to a visitor and a member',
    async (method, path) => {
      for (const token of [undefined, member]) {
        for (const m of [method, method === 'GET' ? 'POST' : 'GET', 'OPTIONS']) {
          const answer = await call(m, `/api${path}`, {
            token,
            headers: { origin: ORIGIN },
            ...(m === 'POST' ? { form: formFor(path) } : { query: m === 'GET' ? formFor(path) : {} }),
          });
          expect(answer.status, `${m} ${path} ${token ? 'member' : 'visitor'}`).toBe(404);
          expect(answer.body).toEqual({ code: '404', msg: '接口不存在', data: null });
        }
      }
    },
  );

  it('an unknown /api/admin path answers exactly as a staff path does to a member', async () => {
    const unknown = await call('GET', '/api/admin/nothing-here', { token: member });
    const known = await call('GET', '/api/admin/reports', { token: member });
    expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
  });
});

describe('recent authentication', () => {
  it.each(staffRoutes.filter((r) => r.staff!.fresh !== false).map((r) => [r.method, r.path] as const))(
    '%s %s refuses a staff session authenticated over 15 minutes ago',
    async (method, path) => {
      const answer = await call(method, `/api${path}`, {
        token: stale,
        headers: { origin: ORIGIN },
        ...(method === 'POST' ? { form: formFor(path) } : { query: formFor(path) }),
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('x-staff-reauth')).toBe('required');
    },
  );

  it('the password makes the session fit again; a wrong one does not', async () => {
    const wrong = await call('POST', '/api/admin/reauth', {
      token: stale,
      headers: { origin: ORIGIN },
      form: { password: 'nope-nope' },
    });
    expect(wrong.status).toBe(400);
    expect((await call('GET', '/api/admin/words', { token: stale })).status).toBe(403);
    const right = await call('POST', '/api/admin/reauth', {
      token: stale,
      headers: { origin: ORIGIN },
      form: { password: 'staff-secret-42' },
    });
    expect(right.status).toBe(200);
    expect((await call('GET', '/api/admin/words', { token: stale })).status).toBe(200);
  });
});

describe('same origin', () => {
  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['no Origin or Referer', {}],
    ['a cross-site fetch', { origin: ORIGIN, 'sec-fetch-site': 'cross-site' }],
    ['Origin null', { origin: 'null' }],
  ])('refuses a staff write from %s', async (_, headers) => {
    const before = await auditCount();
    const answer = await call('POST', '/api/admin/words/add', { token: admin, headers, form: { word: 'cross' } });
    expect(answer.status).toBe(403);
    expect(await auditCount()).toBe(before);
  });
});

describe('audit', () => {
  const actions: [string, string, () => Record<string, string | number>][] = [
    ['grant a role', '/api/admin/roles/grant', () => ({ user_id: memberId, role: 'editor' })],
    ['revoke a role', '/api/admin/roles/revoke', () => ({ user_id: memberId, role: 'editor' })],
    [
      'save content',
      '/api/admin/content/save',
      () => ({
        collection: 'faq',
        id: '01-account',
        data: JSON.stringify({ question: '怎么登录？', order: 1 }),
        body: '点右上角。',
      }),
    ],
    ['restore content', '/api/admin/content/restore', () => ({ collection: 'faq', id: '01-account', version: 1 })],
    ['add a word', '/api/admin/words/add', () => ({ word: '审计词' })],
    ['remove a comment', '/api/admin/moderation/remove', () => ({ type: 'comment', id: commentId, reason: '广告' })],
    ['restore a comment', '/api/admin/moderation/restore', () => ({ type: 'comment', id: commentId })],
    ['mute', '/api/admin/moderation/mute', () => ({ user_id: memberId, days: 1, reason: '刷屏' })],
    ['unmute', '/api/admin/moderation/lift', () => ({ user_id: memberId, kind: 'mute' })],
    ['ban', '/api/admin/moderation/ban', () => ({ user_id: memberId, reason: '诈骗' })],
    ['unban', '/api/admin/moderation/lift', () => ({ user_id: memberId, kind: 'ban' })],
  ];
  it.each(actions)('%s writes exactly one audit row', async (_, path, form) => {
    const before = await auditCount();
    const answer = await call('POST', path, { token: admin, headers: { origin: ORIGIN }, form: form() });
    expect(answer.status, answer.text).toBe(200);
    expect(await auditCount()).toBe(before + 1);
  });

  it('a refused action writes none, and the log refuses changes', async () => {
    const before = await auditCount();
    const bad = await call('POST', '/api/admin/content/save', {
      token: admin,
      headers: { origin: ORIGIN },
      form: {
        collection: 'channels',
        id: '300204',
        data: JSON.stringify({ name: '美食', description: '', banner: 'banners/300204.webp', hashtags: ['美食'] }),
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('description');
    expect(await auditCount()).toBe(before);
    await expect(ctx.db.execute(sql`delete from staff_audit`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`update staff_audit set action = 'x'`)).rejects.toThrow();
  });
});
