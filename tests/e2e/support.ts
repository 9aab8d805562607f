/**
 * What every spec shares: `test` and `expect`, with a check that no page broke its Content-Security-Policy; and what
 * several need: the demo account's session, and a browser context logged in with a session.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientBase } from 'pg';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';

export { expect };

/** Reports each CSP violation of `context`'s pages into `found`: the page's own event, and Chromium's console line. */
function watchCsp(context: BrowserContext, found: string[]): void {
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) found.push(`${message.location().url}: ${message.text()}`);
  });
  void context
    .addInitScript(() =>
      addEventListener('securitypolicyviolation', (e) =>
        console.error(
          `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
        ),
      ),
    )
    .catch(() => {});
}

/**
 * Playwright's `test`, failing any test during which a page of any of its browser contexts (the default one and those
 * it opens itself) broke the Content-Security-Policy.
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context, browser }, use) => {
      const found: string[] = [];
      watchCsp(context, found);
      const open = browser.newContext.bind(browser) as Browser['newContext'];
      browser.newContext = async (options) => {
        const made = await open(options);
        watchCsp(made, found);
        return made;
      };
      await use(found);
      browser.newContext = open;
      expect(found, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

// Under CI two browsers share two cores with the server, PostgreSQL and ffmpeg: a test's own budget is doubled there, as
// the configuration doubles the default one, so a slower machine than this one does not fail a test that only waits.
if (process.env.CI) {
  const set = test.setTimeout.bind(test);
  test.setTimeout = (ms: number) => set(ms * 2);
}

/** The e2e server's DATA_DIR (playwright.config.ts): its outbox holds the login codes it "mailed". */
export const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? '.e2e-data');

export interface Session {
  token: string;
  user: { uid: string; sec_uid: string; nickname: string };
}

/**
 * Logs the demo account in with its password through `api`. Call it once per file (beforeAll): the server allows
 * 10 password logins per 5 minutes per IP, shared with every other spec.
 */
export async function loginDemo(api: APIRequestContext): Promise<Session> {
  const credentials = await (await api.get('/api/passport/demo')).json();
  // A login ends the session the client had: keep this one from ending a session an earlier helper call handed out.
  await api.clearCookies({ name: 'sy_session' });
  expect(credentials.email, 'the e2e server runs with the demo seed').toBeTruthy();
  const login = await api.post('/api/passport/login/password', {
    form: { email: credentials.email, password: credentials.password },
  });
  expect(login.status()).toBe(200);
  return (await login.json()) as Session;
}

/** Logs `context` in as `session`: the session cookie, and the token where the login dialog keeps it. */
export async function signIn(context: BrowserContext, session: { token: string; user: unknown }): Promise<void> {
  const baseURL = test.info().project.use.baseURL!;
  // As a login does: the session cookie and the hint that lets the page show the member's parts before it paints.
  await context.addCookies([
    { name: 'sy_session', value: session.token, url: baseURL },
    { name: 'sy_member', value: '1', url: baseURL },
  ]);
  await context.addInitScript(
    ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
    [session.token, session.user] as const,
  );
}

/**
 * 连播 off on the pages of `target`: a seeded video lasts 8 s, and on a busy machine a test's steps can outlast it,
 * so a feed moving on by itself would shift the index the test counts. A stored player setting is left as it is.
 */
export async function holdEachVideo(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    if (!localStorage.getItem('sy.player')) localStorage.setItem('sy.player', JSON.stringify({ autoNext: false }));
  });
}

/** The newest login code the server wrote to its outbox for `email`, or null. */
export function outboxCode(email: string): string | null {
  try {
    const newest = readdirSync(path.join(DATA_DIR, 'outbox'))
      .filter((n) => n.endsWith(`-${email}.txt`))
      .sort()
      .at(-1);
    return newest
      ? (readFileSync(path.join(DATA_DIR, 'outbox', newest), 'utf8').match(/\b(\d{6})\b/)?.[1] ?? null)
      : null;
  } catch {
    return null;
  }
}

let accounts = 0;

/** A brand-new account (the first code login creates it), logged in through `api`. */
export async function newAccount(api: APIRequestContext, label: string): Promise<Session & { email: string }> {
  // No run of six digits in the address: the outbox is searched for the six-digit code.
  const email = `${label}-${Date.now()}-${test.info().workerIndex}-${++accounts}@e2e.example`;
  // A login ends the session the client had: keep this one from ending a session an earlier helper call handed out.
  await api.clearCookies({ name: 'sy_session' });
  expect((await api.post('/api/passport/code/send', { form: { email } })).status()).toBe(200);
  await expect.poll(() => outboxCode(email)).toMatch(/^\d{6}$/);
  const created = await api.post('/api/passport/login/code', { form: { email, code: outboxCode(email)! } });
  expect(created.status()).toBe(200);
  return { ...((await created.json()) as Session), email };
}

/** URL of the e2e server's embedded PostgreSQL, found through its postmaster.pid (line 4 is the port); null before it runs. */
export function e2eDatabaseUrl(): string | null {
  try {
    const port = Number(readFileSync(path.join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    return port > 0 ? `postgres://postgres:shanying@127.0.0.1:${port}/shanying` : null;
  } catch {
    return null;
  }
}

/**
 * Puts one of the seed's past broadcasts (all its rooms have ended) back on air, as a host's stream would, and returns
 * its id; `newest` picks from the other end of the list, so two files running at once take different rooms. A room no
 * stream reports for is paused by the server's sweep after 20 s and ended 45 s later: put it on air just before the
 * test reads it, and end it with `endBroadcast`.
 */
export async function seedRoomOnAir(db: ClientBase, { newest = false } = {}): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `select id from live_rooms r where status = 'ended'
       and not exists (select 1 from live_rooms o where o.host_id = r.host_id and o.status = 'live')
     order by id ${newest ? 'desc' : 'asc'} limit 1`,
  );
  const id = rows[0]!.id;
  await db.query(
    `update live_rooms set status = 'live', ended_at = null, paused_at = null, started_at = now() where id = $1`,
    [id],
  );
  return id;
}

/** Ends a broadcast `seedRoomOnAir` began. */
export async function endBroadcast(db: ClientBase, id: number | string): Promise<void> {
  await db.query(`update live_rooms set status = 'ended', ended_at = now() where id = $1`, [id]);
}

/** Everything `page` reports as an error from now on: uncaught exceptions and console.error lines. */
export function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}
