/**
 * The primary database lost under steady writes: Patroni promotes the synchronous replica, HAProxy sends the app's
 * connections to it, and the app rides through without a restart. 20 users post comments through HAProxy in a loop;
 * each write is logged here with its outcome, and one that fails (5xx, or no answer) is sent again with the same
 * Idempotency-Key until it is acknowledged. Afterwards every acknowledged comment is in the database, none twice, the
 * failures fall inside the switch, the old primary follows the new one, and an event stream opened before the switch
 * still gets events published after it.
 */
import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { cluster, control, expect, newAccount, queryOn, test, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

const WRITERS = 20;
/** Each writer's pause between two comments: 20 writers then post about 8 a second, under the 30 a minute per account. */
const PACE_MS = 2_500;
/** How long writing goes on before the primary is lost, and after HAProxy sends connections to the new one. */
const BEFORE_MS = 4_000;
const AFTER_MS = 8_000;
/** Failures are allowed from the loss of the primary until this long after Patroni reports the new one. */
const SETTLE_MS = 8_000;
const PROMOTION_LIMIT_MS = 30_000;

interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
}

interface Attempt {
  /** When the request was sent, and when its answer (or failure) came. */
  at: number;
  done: number;
  status: number;
  retryAfter: string | null;
  error?: string;
}

interface Write {
  writer: number;
  text: string;
  key: string;
  attempts: Attempt[];
  acknowledgedAt?: number;
}

let api: APIRequestContext;
let videoId: string;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL! });
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=5')).json();
  videoId = feed.aweme_list[0].aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

const members = async () => (await control('db-members')) as Member[];
const leaderOf = (list: Member[]) => list.find((m) => m.role === 'leader' && m.state === 'running')?.name;
const isReplica = (m: Member) => m.role === 'replica' || m.role === 'sync_standby';

/** A whole cluster: a running primary, two replicas running, one of them synchronous. */
async function healthy(): Promise<boolean> {
  const list = await members();
  return (
    !!leaderOf(list) &&
    list.filter((m) => isReplica(m) && ['running', 'streaming'].includes(m.state)).length === 2 &&
    list.some((m) => m.role === 'sync_standby')
  );
}

/** Rows of `sql` on one Patroni member's own PostgreSQL (not through HAProxy), in the app's database. */
async function queryMember<T>(name: string, sql: string): Promise<T[]> {
  const member = cluster().database.members.find((m) => m.name === name)!;
  const url = new URL(member.url);
  url.pathname = '/shanying';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** POSTs a form through HAProxy with `token`; a failure (5xx, or no answer) is retried with the same Idempotency-Key. */
async function postOnce(
  path: string,
  token: string,
  form: Record<string, string>,
  key: string,
): Promise<{ attempt: Attempt; body: { status_code?: number } }> {
  const at = Date.now();
  try {
    const res = await fetch(`${cluster().balancer}/api${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json().catch(() => ({}))) as { status_code?: number };
    return { attempt: { at, done: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after') }, body };
  } catch (error) {
    const cause = (error as Error).cause ?? error;
    return { attempt: { at, done: Date.now(), status: 0, retryAfter: null, error: String(cause) }, body: {} };
  }
}

const failed = (a: Attempt) => a.status === 0 || a.status >= 500;

/**
 * Comments by one writer until `stopAt()`; each write is tried again until acknowledged (or a 4xx), for 30 s after
 * `stopAt()` at most (a write still failing then is reported, not waited for).
 */
async function writer(who: Session, n: number, run: string, log: Write[], stopAt: () => number): Promise<void> {
  for (let i = 0; Date.now() < stopAt(); i++) {
    const write: Write = { writer: n, text: `切换测试 ${run} ${n}-${i}`, key: `fo-${run}-${n}-${i}`, attempts: [] };
    log.push(write);
    for (;;) {
      const { attempt, body } = await postOnce(
        '/aweme/v1/web/comment/publish',
        who.token,
        { aweme_id: videoId, text: write.text },
        write.key,
      );
      write.attempts.push(attempt);
      if (attempt.status === 200 && body.status_code === 0) {
        write.acknowledgedAt = Date.now();
        break;
      }
      if (!failed(attempt) || Date.now() > stopAt() + 30_000) break;
      // Told to wait (Retry-After); a second at most here, so the window measured is the switch's, not the wait's.
      await new Promise((r) => setTimeout(r, Math.min(Number(attempt.retryAfter ?? 1) * 1_000, 1_000)));
    }
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
}

/** An open event stream (GET /api/events) of `who` on one app server, its text so far. */
function openEvents(url: string, who: Session): { text: () => string; close: () => void } {
  const abort = new AbortController();
  let text = '';
  void (async () => {
    try {
      const res = await fetch(`${url}/api/events`, { headers: { token: who.token }, signal: abort.signal });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
      }
      text += '\n[stream ended]';
    } catch {
      text += '\n[stream ended]';
    }
  })();
  return { text: () => text, close: () => abort.abort() };
}

async function failover(how: 'kill-primary-postmaster' | 'kill-primary-member'): Promise<void> {
  await expect.poll(healthy, { timeout: 90_000, intervals: [500] }).toBe(true);
  const run = `${Date.now()}`;
  const writers: Session[] = [];
  for (let i = 0; i < WRITERS; i++) writers.push(await newAccount(api, `fo-${i}`));
  const [sender, listener] = [await newAccount(api, 'fo-dm-from'), await newAccount(api, 'fo-dm-to')];
  const pidsBefore = await control('web-pids');
  const oldPrimary = leaderOf(await members())!;

  // The listener's event streams, straight to each app server: each server's LISTEN connection feeds its own.
  const streams = cluster().webs.map((web) => ({ name: web.name, ...openEvents(web.url, listener) }));
  for (const s of streams) await expect.poll(s.text, { timeout: 10_000 }).toMatch(/event: dm/);

  const log: Write[] = [];
  let stopAt = Infinity;
  const writing = Promise.all(writers.map((w, n) => writer(w, n, run, log, () => stopAt)));

  await new Promise((r) => setTimeout(r, BEFORE_MS));
  const killedAt = Date.now();
  const killed = (await control(how)) as string;
  expect(killed).toBe(oldPrimary);

  let promotedAt = 0;
  let newPrimary: string | undefined;
  try {
    await expect
      .poll(
        async () => {
          newPrimary = leaderOf(await members());
          return newPrimary !== undefined && newPrimary !== oldPrimary;
        },
        { timeout: PROMOTION_LIMIT_MS, intervals: [250] },
      )
      .toBe(true);
    promotedAt = Date.now();
    // HAProxy sends the primary's connections to it (its /primary answers 200).
    await expect.poll(() => control('db-up-in', 'postgres_primary'), { timeout: 10_000 }).toEqual([newPrimary]);
  } finally {
    stopAt = Date.now() + AFTER_MS;
  }
  const routedAt = Date.now();
  await writing;

  // An event published after the switch reaches the streams opened before it (each server listens again).
  const dm = `切换后的私信 ${run}`;
  let sent = false;
  for (let i = 0; i < 20 && !sent; i++) {
    const { attempt, body } = await postOnce(
      '/aweme/v1/web/im/message/send/',
      sender.token,
      { sec_user_id: listener.user.sec_uid, text: dm },
      `fo-dm-${run}`,
    );
    sent = attempt.status === 200 && body.status_code === 0;
    if (!sent) await new Promise((r) => setTimeout(r, 1_000));
  }
  expect(sent, 'the message after the switch was sent').toBe(true);
  for (const s of streams) {
    await expect.poll(s.text, { timeout: 15_000, message: `${s.name}'s event stream` }).toContain(dm);
    expect(s.text()).not.toContain('[stream ended]');
    s.close();
  }

  // The old primary comes back as a replica of the new one: after a crashed postmaster Patroni rewinds and restarts it
  // itself; a lost member is started again, as its machine would be.
  if (how === 'kill-primary-member') await control('start-member', oldPrimary);
  await expect
    .poll(async () => (await members()).find((m) => m.name === oldPrimary), { timeout: 60_000, intervals: [500] })
    .toMatchObject({
      role: expect.stringMatching(/^(replica|sync_standby)$/),
      state: expect.stringMatching(/^(running|streaming)$/),
    });
  await expect
    .poll(
      async () =>
        (
          await queryMember<{ status: string; recovery: boolean }>(
            oldPrimary,
            'SELECT (SELECT status FROM pg_stat_wal_receiver) AS status, pg_is_in_recovery() AS recovery',
          ).catch(() => [])
        )[0],
      { timeout: 30_000, intervals: [500] },
    )
    .toEqual({ status: 'streaming', recovery: true });

  // The archive goes on from the new primary: a segment it closes reaches pgBackRest's repository (the backups'
  // point-in-time restore needs every segment, whichever member wrote it).
  const [switched] = await queryMember<{ wal: string }>(newPrimary!, 'SELECT pg_walfile_name(pg_switch_wal()) AS wal');
  const wal = switched!.wal;
  const archived = async () =>
    (
      await queryMember<{ last: string | null }>(newPrimary!, 'SELECT last_archived_wal AS last FROM pg_stat_archiver')
    )[0]?.last ?? '';
  // Segment names of one timeline sort as they were written.
  await expect
    .poll(async () => (await archived()) >= wal, {
      timeout: 30_000,
      intervals: [500],
      message: `${newPrimary} archives ${wal}`,
    })
    .toBe(true);

  // What the writers saw.
  const attempts = log.flatMap((w) => w.attempts);
  const failures = attempts.filter(failed);
  const acknowledged = log.filter((w) => w.acknowledgedAt !== undefined);
  const retried = log.filter((w) => w.attempts.length > 1);
  const refused = log.filter((w) => w.acknowledgedAt === undefined);
  const stored = await queryOn<{ text: string; n: number }>(
    'primary',
    'SELECT text, count(*)::int AS n FROM comments WHERE text LIKE $1 GROUP BY text',
    [`切换测试 ${run} %`],
  );
  const count = new Map(stored.map((r) => [r.text, r.n]));
  const lost = acknowledged.filter((w) => !count.has(w.text)).map((w) => w.text);
  const twice = stored.filter((r) => r.n > 1);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const first = failures.length ? Math.min(...failures.map((a) => a.done)) : undefined;
  const last = failures.length ? Math.max(...failures.map((a) => a.done)) : undefined;
  const summary =
    `${how}: ${oldPrimary} → ${newPrimary}, promoted ${s(promotedAt - killedAt)} after the kill, ` +
    `HAProxy routed to it ${s(routedAt - killedAt)}; ` +
    (first !== undefined
      ? `failures from ${s(first - killedAt)} to ${s(last! - killedAt)} after the kill (window ${s(last! - first)}); `
      : 'no failures; ') +
    `${log.length} writes by ${WRITERS} users (${acknowledged.length} acknowledged, ${retried.length} retried, ` +
    `${refused.length} not acknowledged), ${attempts.length} attempts (${failures.length} failed: ` +
    `${[...new Set(failures.map((a) => a.status))].join('/') || '-'}), ${stored.length} distinct comments stored, ` +
    `${twice.length} stored twice, ${lost.length} acknowledged but missing`;
  console.log(summary);
  test.info().annotations.push({ type: 'failover', description: summary });

  expect(lost, 'acknowledged comments missing from the database').toEqual([]);
  // With the Idempotency-Key honoured a retried write is applied once; a server that ignores it would show here.
  expect(twice, 'comments stored more than once').toEqual([]);
  expect(
    refused.map((w) => w.attempts.at(-1)),
    'writes never acknowledged',
  ).toEqual([]);
  expect(acknowledged.filter((w) => w.acknowledgedAt! < killedAt).length).toBeGreaterThan(WRITERS);
  // Every writer went on writing after the switch, on the new primary.
  expect(new Set(acknowledged.filter((w) => w.attempts[0]!.at > routedAt).map((w) => w.writer)).size).toBe(WRITERS);
  // Every failure is the switch's: after the kill, before the new primary had settled; each a 503 with Retry-After.
  expect(failures.filter((a) => a.done < killedAt)).toEqual([]);
  expect(failures.filter((a) => a.done > promotedAt + SETTLE_MS)).toEqual([]);
  expect(failures.filter((a) => a.status !== 503 || !a.retryAfter)).toEqual([]);
  // The app servers and the worker rode through: the same processes as before.
  expect(await control('web-pids')).toEqual(pidsBefore);
  await expect.poll(healthy, { timeout: 60_000, intervals: [500] }).toBe(true);
}

test("the primary's postmaster killed (kill -9) under 20 writers: a replica takes over, nothing acknowledged is lost", async () => {
  test.setTimeout(240_000);
  await failover('kill-primary-postmaster');
});

test("the primary's whole member lost (Patroni and PostgreSQL killed) under 20 writers: a replica takes over once its lock expires", async () => {
  test.setTimeout(240_000);
  await failover('kill-primary-member');
});
