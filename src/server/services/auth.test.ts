import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { encode } from 'uqr';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { DEMO_EMAIL, demoPassword } from '../db/demo.ts';
import { loginCodes, qrTickets, sessions, users } from '../db/schema.ts';
import {
  cancelQrTicket,
  changePassword,
  CODE_DAILY_RATE,
  CODE_EMAIL_RATE,
  CODE_IP_RATE,
  CODE_VERIFY_IP_RATE,
  confirmQrTicket,
  createQrTicket,
  demoCredentials,
  loginWithCode,
  loginWithPassword,
  logout,
  normalizeEmail,
  PASSWORD_IP_RATE,
  PASSWORD_PAIR_RATE,
  QR_CONFIRM_RATE,
  QR_POLL_RATE,
  qrStatus,
  qrSvg,
  requestLoginCode,
  scanQrTicket,
} from './auth.ts';
import { ServiceError } from './errors.ts';
import { lastOutboxCode } from './mailer.ts';
import { reset } from './rate-limit.ts';
import { hashToken, resolveSession } from './sessions.ts';

let t: TestDb;
let dataDir: string;
const savedDataDir = process.env.DATA_DIR;
const savedSmtp = process.env.SMTP_URL;

/** Every secret the flows handle; none may appear in clear in the database or in any output. */
const secrets = new Set<string>();
const codes = new Set<string>();
const output: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shanying-auth-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.SMTP_URL;
  const keep = (chunk: unknown) => {
    output.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void output.push(args.map(String).join(' ')));
  }
  t = await freshDb();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  if (savedSmtp !== undefined) process.env.SMTP_URL = savedSmtp;
  await rm(dataDir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

function track<T extends { token: string }>(login: T): T {
  secrets.add(login.token);
  return login;
}

/** Requests a code and reads it from the outbox, as a developer would. */
async function mailedCode(email: string, ip: string): Promise<string> {
  await requestLoginCode(email, { ip });
  const code = await lastOutboxCode(email);
  expect(code).toMatch(/^\d{6}$/);
  codes.add(code!);
  return code!;
}

const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('normalizeEmail', () => {
  it('trims and lowercases, and rejects empty or malformed addresses in Chinese', async () => {
    expect(normalizeEmail('  Someone@Example.COM ')).toBe('someone@example.com');
    expect(() => normalizeEmail('   ')).toThrow('login.error.emailEmpty');
    expect(() => normalizeEmail('not-an-email')).toThrow('error.emailInvalid');
    expect(() => normalizeEmail(`${'a'.repeat(250)}@example.com`)).toThrow('error.emailInvalid');
  });
});

describe('password login', () => {
  it('logs in with a token that resolves, a new token each time, case-insensitive email', async () => {
    const a = track(await loginWithPassword(DEMO_EMAIL, demoPassword(), { ip: '10.0.0.1', userAgent: 'vitest' }));
    const b = track(await loginWithPassword(' Demo@Shanying.DEV ', demoPassword(), { ip: '10.0.0.1' }));
    expect(a.token).not.toBe(b.token);
    expect(a.created).toBe(false);
    expect(a.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const viewer = await resolveSession(a.token);
    expect(viewer).toEqual(a.user);
    expect((await resolveSession(b.token))?.id).toBe(a.user.id);
    // Successful logins do not count against the account.
    const { rows } = await t.db.execute<{ count: number }>(sql`select count from rate_limits where key = ${`pw:acct:${DEMO_EMAIL}`}`);
    expect(rows[0]?.count ?? 0).toBe(0);
  });

  it('answers a wrong password, an unknown email and a password-less account alike', async () => {
    await t.db.insert(users).values({ email: 'nopass@example.com', secUid: 'MS4wLjABAAAAnopass', nickname: '无密码', avatar: 'avatars/a01.webp' });
    const ctx = { ip: '10.0.0.2' };
    const errors = [
      await failure(loginWithPassword(DEMO_EMAIL, 'wrong-password-1', ctx)),
      await failure(loginWithPassword('ghost@example.com', 'wrong-password-1', ctx)),
      await failure(loginWithPassword('nopass@example.com', 'wrong-password-1', ctx)),
    ];
    for (const e of errors) expect({ kind: e.kind, key: e.key }).toEqual({ kind: 'unauthorized', key: 'error.wrongPassword' });
  });

  it('rejects an empty or overlong password before doing any work', async () => {
    expect((await failure(loginWithPassword(DEMO_EMAIL, '', { ip: '10.0.0.3' }))).key).toBe('error.passwordEmpty');
    expect((await failure(loginWithPassword(DEMO_EMAIL, 'x'.repeat(129), { ip: '10.0.0.3' }))).kind).toBe('invalid');
    expect((await failure(loginWithPassword('', 'whatever', { ip: '10.0.0.3' }))).key).toBe('login.error.emailEmpty');
  });

  it(`locks an (account, IP) pair after ${PASSWORD_PAIR_RATE.limit} failures, but the owner still gets in from another IP`, async () => {
    const attacker = { ip: '203.0.113.7' };
    const tries = await Promise.all(
      Array.from({ length: PASSWORD_PAIR_RATE.limit }, (_, i) => failure(loginWithPassword(DEMO_EMAIL, `guess-${i}`, attacker))),
    );
    expect(tries.every((e) => e.kind === 'unauthorized')).toBe(true);
    const eleventh = await failure(loginWithPassword(DEMO_EMAIL, demoPassword(), attacker));
    expect(eleventh.kind).toBe('rate_limited');
    expect(eleventh.retryAfter).toBeGreaterThan(0);

    const owner = track(await loginWithPassword(DEMO_EMAIL, demoPassword(), { ip: '198.51.100.20' }));
    expect((await resolveSession(owner.token))?.id).toBe(owner.user.id);

    // After the per-IP window, the pair stays locked for its hour.
    await reset(`pw:ip:${attacker.ip}`);
    const still = await failure(loginWithPassword(DEMO_EMAIL, demoPassword(), attacker));
    expect(still.kind).toBe('rate_limited');
    expect(still.retryAfter).toBeGreaterThan(PASSWORD_IP_RATE.windowMs / 1000);
  });

  it(`limits one IP to ${PASSWORD_IP_RATE.limit} attempts in ${PASSWORD_IP_RATE.windowMs / 60_000} minutes across different accounts`, async () => {
    const ctx = { ip: '192.0.2.55' };
    const tries = await Promise.all(
      Array.from({ length: PASSWORD_IP_RATE.limit }, (_, i) => failure(loginWithPassword(`user${i}@example.com`, 'nope-nope-1', ctx))),
    );
    expect(tries.every((e) => e.kind === 'unauthorized')).toBe(true);
    const eleventh = await failure(loginWithPassword('one-more@example.com', 'nope-nope-1', ctx));
    expect(eleventh.kind).toBe('rate_limited');
    expect(eleventh.retryAfter).toBeGreaterThan(0);
    expect(eleventh.retryAfter).toBeLessThanOrEqual(PASSWORD_IP_RATE.windowMs / 1000);
  });
});

describe('code login', () => {
  const email = 'Newcomer@Example.com';

  it('creates the account on the first code login and reuses it later', async () => {
    const code = await mailedCode(email, '10.1.0.1');
    const first = track(await loginWithCode(email, code, { ip: '10.1.0.1', userAgent: 'vitest' }));
    expect(first.created).toBe(true);
    expect(first.user.nickname).toMatch(/^用户\d{6}$/);
    expect(first.user.avatar).toMatch(/^avatars\/a(0[1-9]|1\d|2[0-4])\.webp$/);
    expect(first.user.secUid).toMatch(/^MS4wLjABAAAA[\w-]{40}$/);
    expect((await resolveSession(first.token))?.id).toBe(first.user.id);
    const [row] = await t.db.select().from(users).where(eq(users.id, first.user.id));
    expect(row!.email).toBe('newcomer@example.com');
    expect(row!.passwordHash).toBeNull();

    // A used code does not work twice.
    expect((await failure(loginWithCode(email, code, { ip: '10.1.0.1' }))).key).toBe('error.wrongCode');

    await reset('code:email:');
    const second = track(await loginWithCode(email, await mailedCode(email, '10.1.0.1'), { ip: '10.1.0.1' }));
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.token).not.toBe(first.token);
  });

  it('allows one request per 60 s per email', async () => {
    await reset('code:email:');
    await mailedCode('sixty@example.com', '10.1.0.2');
    const again = await failure(requestLoginCode('SIXTY@example.com', { ip: '10.1.0.99' }));
    expect(again.kind).toBe('rate_limited');
    expect(again.retryAfter).toBeGreaterThan(0);
    expect(again.retryAfter).toBeLessThanOrEqual(CODE_EMAIL_RATE.windowMs / 1000);
  });

  it(`allows ${CODE_DAILY_RATE.limit} requests per day per email and ${CODE_IP_RATE.limit} per hour per IP`, async () => {
    for (let i = 0; i < CODE_DAILY_RATE.limit; i++) {
      await reset('code:email:');
      await requestLoginCode('daily@example.com', { ip: '10.1.1.1' });
    }
    await reset('code:email:');
    const day = await failure(requestLoginCode('daily@example.com', { ip: '10.1.1.2' }));
    expect(day.kind).toBe('rate_limited');
    expect(day.retryAfter).toBeGreaterThan(3600);

    // 10.1.1.1 has spent CODE_DAILY_RATE.limit of its CODE_IP_RATE.limit above.
    for (let i = CODE_DAILY_RATE.limit; i < CODE_IP_RATE.limit; i++) await requestLoginCode(`spray${i}@example.com`, { ip: '10.1.1.1' });
    expect((await failure(requestLoginCode('spray-last@example.com', { ip: '10.1.1.1' }))).kind).toBe('rate_limited');
  });

  it('keeps only the newest code valid', async () => {
    await reset('code:email:');
    const older = await mailedCode('twice@example.com', '10.1.0.3');
    await reset('code:email:');
    const newer = await mailedCode('twice@example.com', '10.1.0.3');
    if (older !== newer) expect((await failure(loginWithCode('twice@example.com', older, { ip: '10.1.0.3' }))).kind).toBe('unauthorized');
    expect((await loginWithCode('twice@example.com', newer, { ip: '10.1.0.3' })).created).toBe(true);
  });

  it('fails the 6th try even with the right code', async () => {
    await reset('code:email:');
    const code = await mailedCode('tries@example.com', '10.1.0.4');
    for (let i = 0; i < 5; i++) {
      expect((await failure(loginWithCode('tries@example.com', other(code), { ip: '10.1.0.4' }))).key).toBe('error.wrongCode');
    }
    expect((await failure(loginWithCode('tries@example.com', code, { ip: '10.1.0.4' }))).kind).toBe('unauthorized');
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.email, 'tries@example.com'));
    expect(row!.attempts).toBe(5);
  });

  it('accepts the right code within 5 tries, and never counts beyond 5 under parallel guesses', async () => {
    await reset('code:email:');
    const code = await mailedCode('parallel@example.com', '10.1.0.5');
    await Promise.all(Array.from({ length: 8 }, () => loginWithCode('parallel@example.com', other(code), { ip: '10.1.0.5' }).catch(() => null)));
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.email, 'parallel@example.com'));
    expect(row!.attempts).toBe(5);

    await reset('code:email:');
    const fresh = await mailedCode('parallel@example.com', '10.1.0.5');
    await failure(loginWithCode('parallel@example.com', other(fresh), { ip: '10.1.0.6' }));
    expect((await loginWithCode('parallel@example.com', fresh, { ip: '10.1.0.6' })).user.id).toBeGreaterThan(0);
  });

  it('refuses an expired code', async () => {
    await reset('code:email:');
    const code = await mailedCode('late@example.com', '10.1.0.7');
    await t.db
      .update(loginCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginCodes.email, 'late@example.com'));
    expect((await failure(loginWithCode('late@example.com', code, { ip: '10.1.0.7' }))).key).toBe('error.wrongCode');
  });

  it('validates the code format and bounds verification per IP', async () => {
    for (const bad of ['12345', '1234567', 'abcdef', '']) {
      expect((await failure(loginWithCode('x@example.com', bad, { ip: '10.1.0.8' }))).key).toBe('error.codeFormat');
    }
    const ctx = { ip: '10.1.0.9' };
    for (let i = 0; i < CODE_VERIFY_IP_RATE.limit; i++) await failure(loginWithCode('nobody@example.com', '000000', ctx));
    expect((await failure(loginWithCode('nobody@example.com', '000000', ctx))).kind).toBe('rate_limited');
  });
});

describe('QR login', () => {
  // Scanning and confirming happen on a logged-in device; the services take that viewer's id.
  async function confirmer() {
    const [demo] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EMAIL));
    return demo!;
  }

  it('pending → scanned → confirmed; the first status logs in as the confirmer, the next is expired', async () => {
    const viewer = await confirmer();
    const { ticket, expiresAt } = await createQrTicket({ ip: '10.2.0.2' });
    secrets.add(ticket);
    expect(ticket).toMatch(/^[\w-]{43}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(120_000);
    const [stored] = await t.db.select().from(qrTickets).where(eq(qrTickets.ticketHash, hashToken(ticket)));
    expect(stored?.status).toBe('pending');

    expect(await qrStatus(ticket)).toEqual({ status: 'pending' });
    expect(await scanQrTicket(ticket, viewer.id)).toEqual({ status: 'scanned' });
    expect(await qrStatus(ticket)).toEqual({ status: 'scanned' });
    await confirmQrTicket(ticket, viewer.id);

    const first = await qrStatus(ticket, { ip: '10.2.0.2', userAgent: 'dialog' });
    expect(first.status).toBe('confirmed');
    const login = track(first.login!);
    expect(login.user.id).toBe(viewer.id);
    expect((await resolveSession(login.token))?.id).toBe(viewer.id);
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(confirmQrTicket(ticket, viewer.id))).kind).toBe('conflict');
  });

  it('answers expired for an expired ticket and refuses to scan or confirm it', async () => {
    const viewer = await confirmer();
    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    await t.db.update(qrTickets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(qrTickets.ticketHash, hashToken(ticket)));
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(scanQrTicket(ticket, viewer.id))).kind).toBe('conflict');
    expect((await failure(confirmQrTicket(ticket, viewer.id))).kind).toBe('conflict');
  });

  it('cancels a ticket; unknown and malformed tickets are not_found', async () => {
    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    await cancelQrTicket(ticket);
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(qrStatus('A'.repeat(43)))).kind).toBe('not_found');
    expect((await failure(qrStatus('../etc'))).kind).toBe('not_found');
  });

  it('bounds confirmations per user and polls per ticket', async () => {
    const viewer = await confirmer();
    await reset('qr:confirm:');
    for (let i = 0; i < QR_CONFIRM_RATE.limit; i++) expect((await failure(confirmQrTicket('B'.repeat(43), viewer.id))).kind).toBe('not_found');
    expect((await failure(confirmQrTicket('B'.repeat(43), viewer.id))).kind).toBe('rate_limited');

    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    for (let i = 0; i < QR_POLL_RATE.limit; i++) await qrStatus(ticket);
    const polled = await failure(qrStatus(ticket));
    expect(polled.kind).toBe('rate_limited');
    expect(polled.retryAfter).toBeGreaterThan(0);
  });

  it('draws a real QR code of the URL as an SVG', () => {
    const url = `https://shanying.dev/qr/${'x'.repeat(43)}`;
    const svg = qrSvg(url);
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toContain('aria-label="扫码登录二维码"');
    expect(svg).toContain('fill="#161823"');
    // Rebuild the module grid from the path and compare it with the encoder's matrix, quiet zone included.
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
    const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
    for (const [, x, y, w] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      for (let i = 0; i < Number(w); i++) grid[Number(y)]![Number(x) + i] = true;
    }
    const expected = encode(url, { ecc: 'M', border: 4 });
    expect(size).toBe(expected.size);
    expect(grid).toEqual(expected.data);
    expect(grid[0]!.some(Boolean)).toBe(false);
    // Top-left finder pattern: a 7-module dark ring starting after the 4-module quiet zone.
    expect(grid[4]!.slice(4, 11).every(Boolean)).toBe(true);
    expect(grid[5]!.slice(4, 11)).toEqual([true, false, false, false, false, false, true]);
    expect(() => qrSvg('')).toThrow();
  });
});

describe('logout, password changes, demo credentials', () => {
  it('makes the token useless after logout', async () => {
    await reset('code:email:');
    const login = track(await loginWithCode('leaver@example.com', await mailedCode('leaver@example.com', '10.3.0.1'), { ip: '10.3.0.1' }));
    expect(await resolveSession(login.token)).not.toBeNull();
    await logout(login.token);
    expect(await resolveSession(login.token)).toBeNull();
    await logout('');
    await logout('never-issued');
  });

  it('sets a first password without `current`, then changes it only with the right one', async () => {
    await reset('code:email:');
    const email = 'changer@example.com';
    const a = track(await loginWithCode(email, await mailedCode(email, '10.3.0.2'), { ip: '10.3.0.2' }));
    await reset('code:email:');
    const b = track(await loginWithCode(email, await mailedCode(email, '10.3.0.2'), { ip: '10.3.0.2' }));
    const id = a.user.id;

    for (const weak of ['short1', 'abcdefgh', '12345678', `a1${'x'.repeat(127)}`]) {
      expect((await failure(changePassword(id, { next: weak }))).key).toBe('error.passwordRule');
    }
    secrets.add('first-pass-1');
    expect(await changePassword(id, { next: 'first-pass-1' })).toEqual({ revokedSessions: 0 });
    const [row] = await t.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id));
    expect(row!.h).toMatch(/^scrypt\$17\$8\$1\$/);
    track(await loginWithPassword(email, 'first-pass-1', { ip: '10.3.0.3' }));

    expect((await failure(changePassword(id, { next: 'second-pass-2' }))).key).toBe('error.wrongCurrentPassword');
    const wrong = await failure(changePassword(id, { current: 'not-it-000', next: 'second-pass-2' }));
    expect({ kind: wrong.kind, key: wrong.key }).toEqual({ kind: 'forbidden', key: 'error.wrongCurrentPassword' });

    secrets.add('second-pass-2');
    const changed = await changePassword(id, { current: 'first-pass-1', next: 'second-pass-2' }, { token: a.token });
    expect(changed.revokedSessions).toBeGreaterThanOrEqual(2);
    expect((await resolveSession(a.token))?.id).toBe(id);
    expect(await resolveSession(b.token)).toBeNull();
  });

  it('offers the demo credentials only while the demo account keeps the seeded password', async () => {
    expect(await demoCredentials()).toEqual({ email: DEMO_EMAIL, password: demoPassword() });
    const [demo] = await t.db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, demo!.id));
    expect(await demoCredentials()).toBeNull();
    await t.db.update(users).set({ passwordHash: demo!.passwordHash }).where(eq(users.id, demo!.id));
    expect(await demoCredentials()).toEqual({ email: DEMO_EMAIL, password: demoPassword() });
  });

  it('gives new accounts avatars that exist in the media manifest', () => {
    const manifest = readFileSync(new URL('../../../media/manifest.json', import.meta.url), 'utf8');
    for (let n = 1; n <= 24; n++) expect(manifest).toContain(`"avatars/a${String(n).padStart(2, '0')}.webp"`);
  });
});

describe('secrets at rest and in logs', () => {
  it('keeps every password, code, token and ticket out of every table and every log line', async () => {
    secrets.add(demoPassword());
    expect(secrets.size).toBeGreaterThan(10);
    expect(codes.size).toBeGreaterThan(5);
    const { rows: columns } = await t.db.execute<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'ARRAY', 'json')`);
    expect(columns.length).toBeGreaterThan(20);
    const dump: string[] = [];
    for (const { table_name, column_name } of columns) {
      const { rows } = await t.db.execute<{ v: string | null }>(
        sql`select ${sql.identifier(column_name)}::text as v from ${sql.identifier(table_name)}`,
      );
      for (const { v } of rows) if (v) dump.push(v);
    }
    const everything = dump.join('\n');
    const logs = output.join('\n');
    expect(logs).toContain('outbox');
    for (const secret of secrets) {
      expect(everything.includes(secret), 'a secret is stored in clear').toBe(false);
      expect(logs.includes(secret), 'a secret reached the log').toBe(false);
    }
    for (const code of codes) {
      const clear = new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`);
      expect(clear.test(everything), 'a code is stored in clear').toBe(false);
      expect(clear.test(logs), 'a code reached the log').toBe(false);
    }
    // What is stored instead: the hashes of the tokens handed out.
    const hashes = new Set((await t.db.select({ h: sessions.tokenHash }).from(sessions)).map((r) => r.h));
    expect([...secrets].filter((s) => hashes.has(hashToken(s))).length).toBeGreaterThan(5);
  });
});
