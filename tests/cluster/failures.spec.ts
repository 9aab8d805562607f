/**
 * The cluster when parts of it fail or lag, over plain HTTP through HAProxy: reads while the replica lags or is
 * stopped, an upload handed to the worker (web servers run no jobs here), and an app server killed under load.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { makeClip } from '../setup/clips.ts';
import { cluster, control, expect, newAccount, queryOn, servedBy, test, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let base: string;
let videoId: string;

test.beforeAll(async ({ playwright }, info) => {
  base = info.project.use.baseURL!;
  api = await playwright.request.newContext({ baseURL: base });
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=5')).json();
  videoId = feed.aweme_list[0].aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

async function comment(who: Session, text: string): Promise<Response> {
  return fetch(`${base}/api/aweme/v1/web/comment/publish`, {
    method: 'POST',
    headers: { token: who.token, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ aweme_id: videoId, text }),
  });
}

/** The comment texts an anonymous visitor reads (anonymous reads are the ones sent to the replica). */
async function anonymousComments(): Promise<{ status: number; texts: string[] }> {
  const res = await fetch(`${base}/api/aweme/v1/web/comment/list/?aweme_id=${videoId}&cursor=0&count=50`);
  const body = res.ok ? ((await res.json()) as { comments?: { text: string }[] }) : {};
  return { status: res.status, texts: (body.comments ?? []).map((c) => c.text) };
}

async function onReplica(text: string): Promise<number> {
  const [row] = await queryOn<{ n: number }>('replica', 'SELECT count(*)::int AS n FROM comments WHERE text = $1', [
    text,
  ]);
  return row!.n;
}

/** What each app server's /readyz says of the replica: its state, or 'none' when it names no replica. */
async function replicaStates(): Promise<string[]> {
  return Promise.all(
    cluster().webs.map(async (web) => {
      const body = (await (await fetch(`${web.url}/readyz`)).json()) as {
        status: string;
        replicas?: { state: string }[];
      };
      return body.status === 'ok' ? (body.replicas?.[0]?.state ?? 'none') : body.status;
    }),
  );
}

test('anonymous reads fall back to the primary while the replica lags, and while it is stopped', async () => {
  test.setTimeout(90_000);
  const who = await newAccount(api, 'lag');
  const statuses: number[] = [];
  const readUntilSeen = async (text: string) => {
    await expect
      .poll(
        async () => {
          const read = await anonymousComments();
          statuses.push(read.status);
          return read.texts.includes(text);
        },
        { timeout: 20_000, intervals: [250] },
      )
      .toBe(true);
  };

  const everyServer = (state: string) => cluster().webs.map(() => state);
  await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(everyServer('up'));

  // Lagging: the replica stops replaying what it receives, so it never gets this comment.
  await control('pause-replay');
  try {
    const lagged = `副本延迟时的评论 ${Date.now()}`;
    expect((await comment(who, lagged)).status).toBe(200);
    await readUntilSeen(lagged);
    expect(await onReplica(lagged), 'the replica is behind: the read that found it came from the primary').toBe(0);
    // Each app server says so on /readyz, and stays ready: the primary answers those reads.
    await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(everyServer('lagging'));
  } finally {
    await control('resume-replay');
  }

  // Stopped: reads meanwhile still answer, and see the newest writes.
  await control('stop-replica');
  try {
    const stopped = `副本停机时的评论 ${Date.now()}`;
    expect((await comment(who, stopped)).status).toBe(200);
    await readUntilSeen(stopped);
    await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(everyServer('down'));
  } finally {
    await control('start-replica');
  }
  expect(
    statuses.filter((s) => s !== 200),
    `statuses of the reads: ${statuses.join(' ')}`,
  ).toEqual([]);
  // Back, the replica catches up with what it missed (its replication slot kept it).
  const last = `副本恢复后的评论 ${Date.now()}`;
  expect((await comment(who, last)).status).toBe(200);
  await expect.poll(() => onReplica(last), { timeout: 20_000 }).toBe(1);
  await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(everyServer('up'));
});

test('an upload through either app server is processed by the separate worker and plays from the object store', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'cluster-upload-'));
  try {
    const clip = makeClip(dir, '集群上传.mp4', { seconds: 2, width: 360, height: 640 });
    const bytes = readFileSync(clip);
    const me = await newAccount(api, 'lb-upload');
    const tus = { 'Tus-Resumable': '1.0.0', Token: me.token };
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const through: (string | null)[] = [];
    const created = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: {
        ...tus,
        'Upload-Length': String(statSync(clip).size),
        'Upload-Metadata': `filename ${b64('集群上传.mp4')},kind ${b64('video')}`,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    through.push(servedBy(created.headers));
    const location = created.headers.get('location')!;
    const uploadId = location.split('/').pop()!;
    // Two chunks, one request each: with the first, three requests in a row, so both app servers take part.
    const half = Math.floor(bytes.length / 2);
    for (const [offset, chunk] of [
      [0, bytes.subarray(0, half)],
      [half, bytes.subarray(half)],
    ] as const) {
      const patched = await fetch(new URL(location, base), {
        method: 'PATCH',
        headers: { ...tus, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: chunk,
      });
      expect(patched.status, await patched.clone().text()).toBe(204);
      through.push(servedBy(patched.headers));
    }
    expect(new Set(through)).toEqual(new Set(['web1', 'web2']));

    const studio = async (url: string, init?: RequestInit) => {
      const res = await fetch(`${base}${url}`, {
        ...init,
        headers: { Token: me.token, ...(init?.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      });
      return (await res.json()) as { code: string; data: Record<string, unknown> };
    };
    const view = await studio(`/api/studio/upload?uploadId=${uploadId}`);
    expect(view.code).toBe('200');
    const config = await studio('/api/studio/config');
    const channelId = String((config.data.channels as { id: number }[])[0]!.id);
    const made = await studio('/api/studio/work/create', {
      method: 'POST',
      body: new URLSearchParams({ uploadId, title: '集群里的上传 #测试', channelId }),
    });
    expect(made.code, JSON.stringify(made)).toBe('200');
    const workId = made.data.id as number;
    // Only the worker works the queue (the app servers run with WORKER=off).
    let work: Record<string, unknown> = {};
    await expect
      .poll(
        async () => {
          work = (await studio(`/api/studio/work?workId=${workId}`)).data;
          return work.status;
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .toBe('published');
    const renditions = work.renditions as { url: string }[];
    expect(renditions.length).toBeGreaterThan(0);
    const media = await fetch(new URL(renditions[0]!.url, base), { headers: { Range: 'bytes=0-1023' } });
    expect(media.status).toBe(206);
    expect(media.headers.get('content-type')).toBe('video/mp4');
    expect(servedBy(media.headers), 'media comes from the object store').toBeNull();
    // The worker's log has the job; neither web server's does.
    const processed = (name: string) =>
      readFileSync(path.join(cluster().logDir, `${name}.log`), 'utf8')
        .split('\n')
        .some((line) => line.includes('"jobs.process"') && line.includes(uploadId));
    expect(processed('worker')).toBe(true);
    expect(processed('web1') || processed('web2')).toBe(false);

    await page.goto(`/video/${workId}`);
    const video = page.locator('video').first();
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an app server killed under load: HAProxy retries every GET it can on the other server, and no acknowledged write is lost', async () => {
  test.setTimeout(120_000);
  const run = `${Date.now()}`;
  const writers = await Promise.all([1, 2, 3].map((i) => newAccount(api, `kill-${i}`)));
  const gets = [
    `/video/${videoId}`,
    '/discover',
    `/api/aweme/v1/web/aweme/detail/?aweme_id=${videoId}`,
    '/api/aweme/v1/web/tab/feed/?count=6',
    `/api/aweme/v1/web/comment/list/?aweme_id=${videoId}&cursor=0&count=10`,
  ];
  const LOAD_MS = 9_000;
  const KILL_AT_MS = 3_000;
  const started = Date.now();
  let killedAt = Infinity;
  const getResults: { status: number; at: number; path: string; error?: string }[] = [];
  const writes: { text: string; status: number; acknowledged: boolean }[] = [];

  const getLoop = async (n: number) => {
    for (let i = n; Date.now() - started < LOAD_MS; i++) {
      const where = gets[i % gets.length]!;
      try {
        const res = await fetch(`${base}${where}`);
        await res.arrayBuffer();
        getResults.push({ status: res.status, at: Date.now(), path: where });
      } catch (error) {
        getResults.push({ status: 0, at: Date.now(), path: where, error: String((error as Error).cause ?? error) });
      }
    }
  };
  const writeLoop = async (who: Session, n: number) => {
    // 25 at most per writer: the comment limit is 30 a minute per account.
    for (let i = 0; i < 25 && Date.now() - started < LOAD_MS; i++) {
      const text = `宕机测试 ${run} ${n}-${i}`;
      try {
        const res = await comment(who, text);
        const body = (await res.json().catch(() => ({}))) as { status_code?: number };
        writes.push({ text, status: res.status, acknowledged: res.status === 200 && body.status_code === 0 });
      } catch {
        writes.push({ text, status: 0, acknowledged: false });
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  const killer = (async () => {
    await new Promise((r) => setTimeout(r, KILL_AT_MS));
    killedAt = Date.now();
    await control('kill-web', 'web1');
  })();
  await Promise.all([...[0, 1, 2, 3, 4, 5].map(getLoop), ...writers.map((w, n) => writeLoop(w, n)), killer]);

  try {
    const afterKill = getResults.filter((r) => r.at > killedAt);
    expect(afterKill.length, 'GETs answered after the kill').toBeGreaterThan(20);
    // What HAProxy did with each GET: how many it retried (on the other server), and which it could not, because web1
    // died while the answer was already on its way to the client (termination state SD, part of the body sent): no
    // proxy can take back bytes a client has, so those are the only GETs allowed to fail.
    await new Promise((r) => setTimeout(r, 500));
    const lines = readFileSync(path.join(cluster().logDir, 'haproxy.log'), 'utf8').split('\n');
    const entries = lines
      .map((line) =>
        / app\/(\w+) \S+ (\d{3}) (\d+) \S+ \S+ (\S{4}) \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) \d+\/\d+ "GET (\S+)/.exec(line),
      )
      .filter((m) => m !== null)
      .map((m) => ({
        server: m[1],
        bytes: Number(m[3]),
        state: m[4]!,
        redispatched: m[5] === '+',
        retries: Number(m[6]),
        path: m[7]!,
      }));
    const retried = entries.filter((e) => e.retries > 0);
    const cut = entries.filter((e) => e.state.startsWith('SD') && e.bytes > 0);
    expect(retried.length, 'GETs HAProxy retried after the kill').toBeGreaterThan(0);
    const failed = getResults.filter((r) => r.status !== 200);
    expect(
      failed.length,
      `failed GETs ${JSON.stringify(failed)}, answers cut off by the kill ${JSON.stringify(cut)}`,
    ).toBeLessThanOrEqual(cut.length);
    for (const f of failed) expect(cut.map((c) => c.path)).toContain(f.path);

    const acknowledged = writes.filter((w) => w.acknowledged);
    expect(acknowledged.length).toBeGreaterThan(20);
    const stored = await queryOn<{ text: string; n: number }>(
      'primary',
      'SELECT text, count(*)::int AS n FROM comments WHERE text LIKE $1 GROUP BY text',
      [`宕机测试 ${run} %`],
    );
    const storedTexts = new Map(stored.map((r) => [r.text, r.n]));
    const lost = acknowledged.filter((w) => !storedTexts.has(w.text)).map((w) => w.text);
    expect(lost, 'acknowledged comments missing from the database').toEqual([]);
    // A POST is never replayed by HAProxy, so none is stored twice.
    expect(stored.filter((r) => r.n > 1)).toEqual([]);
    const summary =
      `${getResults.length} GETs (${afterKill.length} after the kill; ${retried.length} retried by HAProxy, ${failed.length} cut off mid-answer), ` +
      `${writes.length} writes (${acknowledged.length} acknowledged, ${writes.length - acknowledged.length} not)`;
    console.log(`kill under load: ${summary}`);
    test.info().annotations.push({ type: 'load', description: summary });
  } finally {
    await control('start-web', 'web1');
  }
  expect(await control('web-up', 'web1')).toBe(true);
});
