// Upload locks across app servers: each "server" here is its own connection pool and event hub on one database, as two
// processes behind the balancer would be.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { EventHub, publish } from '../realtime/events.ts';
import { UploadLocker } from './upload-lock.ts';

let t: TestDb;
const servers: { pool: pg.Pool; hub: EventHub; locker: UploadLocker }[] = [];
const BUSY = { status_code: 423, body: 'busy' };

function server(timeoutMs = 3_000) {
  const pool = new pg.Pool({ connectionString: t.url, max: 4 });
  const hub = new EventHub(t.url);
  const locker = new UploadLocker({
    connect: () => pool.connect(),
    askRelease: (id) => publish(`upload-lock:${id}`, { type: 'release', data: null }),
    onAsk: (id, onAsk) => hub.subscribe([`upload-lock:${id}`], onAsk),
    busy: () => BUSY,
    timeoutMs,
    retryMs: 20,
  });
  servers.push({ pool, hub, locker });
  return { pool, hub, locker };
}

beforeAll(async () => {
  t = await freshDb();
});

afterAll(async () => {
  for (const s of servers) {
    await s.hub.close();
    await s.pool.end();
  }
  await t.close();
});

const never = () => {};

describe('UploadLocker', () => {
  it('lets one server at a time hold an upload: the other asks the holder to let go and takes it once it has', async () => {
    const a = server();
    const b = server();
    await Promise.all([a.hub.ready(), b.hub.ready()]);
    const held = a.locker.newLock('upload-1');
    let asked = 0;
    const stop = new AbortController();
    await held.lock(stop.signal, () => {
      asked++;
      // What tus does when asked: end the request that holds the lock, which unlocks.
      void held.unlock();
    });

    let gotAt = 0;
    const taking = b.locker.newLock('upload-1');
    const started = Date.now();
    await taking.lock(new AbortController().signal, never).then(() => (gotAt = Date.now()));
    expect(asked).toBe(1);
    expect(gotAt - started).toBeLessThan(2_500);
    await taking.unlock();
  });

  it('keeps a held upload from the other server until its timeout, then refuses with the busy answer', async () => {
    const a = server();
    const b = server(400);
    await a.hub.ready();
    const held = a.locker.newLock('upload-2');
    let asked = 0;
    await held.lock(new AbortController().signal, () => void asked++);

    const started = Date.now();
    await expect(b.locker.newLock('upload-2').lock(new AbortController().signal, never)).rejects.toBe(BUSY);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });

    // Released, the same upload is free again for the other server.
    await held.unlock();
    const again = b.locker.newLock('upload-2');
    await again.lock(new AbortController().signal, never);
    await again.unlock();
  });

  it('does not hold one upload up for another', async () => {
    const a = server();
    const b = server(400);
    const one = a.locker.newLock('upload-3');
    await one.lock(new AbortController().signal, never);
    const other = b.locker.newLock('upload-4');
    await other.lock(new AbortController().signal, never);
    await Promise.all([one.unlock(), other.unlock()]);
  });

  it('frees the lock of a server whose connection died while holding it', async () => {
    const a = server();
    const b = server(3_000);
    const held = a.locker.newLock('upload-5');
    await held.lock(new AbortController().signal, never);
    // A server killed mid-PATCH: PostgreSQL sees its connection end and drops what that session held.
    await t.pool.query(
      `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database()) and granted`,
    );
    const taking = b.locker.newLock('upload-5');
    await taking.lock(new AbortController().signal, never);
    await taking.unlock();
    await held.unlock();
  });

  it('stops waiting when the asking request is aborted', async () => {
    const a = server();
    const b = server(10_000);
    const held = a.locker.newLock('upload-6');
    await held.lock(new AbortController().signal, never);
    const abort = new AbortController();
    const waiting = b.locker.newLock('upload-6').lock(abort.signal, never);
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    await expect(waiting).rejects.toBe(BUSY);
    expect(Date.now() - started).toBeLessThan(2_000);
    await held.unlock();
  });
});
