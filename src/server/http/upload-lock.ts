/**
 * tus's lock on one upload, shared by every app server: a PostgreSQL advisory lock, held on a connection of its own
 * while a request works on that upload. Behind the balancer a client that lost its connection mid-PATCH resumes with a
 * HEAD and a PATCH that may reach another server than the one still writing the first PATCH; tus's own MemoryLocker
 * sees only its process, so both would append to the same file at once.
 * As with MemoryLocker, a request that finds the lock held asks the holder to let go (tus then ends the holder's
 * request, the stale one of a client that came back); the ask travels through the event hub, so the holder may sit in
 * any process. The asker tries again every `retryMs` (asking again every second) for up to `timeoutMs`, then is answered 423 (tus clients retry it).
 * A server that dies holding a lock loses its connection, and PostgreSQL frees the lock with it.
 */
import pg from 'pg';
import type { Lock, Locker, RequestRelease } from '@tus/server';

/**
 * The first key of every upload lock (advisory locks take two int4 keys, the second is `hashtext(id)`): 'tusu', apart
 * from other advisory locks. The upload sweep takes the same lock for a transaction to stay out of a PATCH's way.
 */
export const UPLOAD_LOCK_CLASS = 0x74757375;
const ASK_EVERY_MS = 1_000;

export interface UploadLockerOptions {
  /** A connection that keeps its session (not through a transaction pooler): the lock lives as long as it does. */
  connect: () => Promise<pg.PoolClient>;
  /** Asks whoever holds upload `id`'s lock, in any process, to let go. */
  askRelease: (id: string) => Promise<void>;
  /** Calls `onAsk` whenever someone asks for upload `id`'s lock, until the returned function is called. */
  onAsk: (id: string, onAsk: () => void) => () => void;
  /** The refusal thrown when the lock stays held past `timeoutMs`. */
  busy: () => unknown;
  timeoutMs?: number;
  retryMs?: number;
}

export class UploadLocker implements Locker {
  readonly options: UploadLockerOptions;

  constructor(options: UploadLockerOptions) {
    this.options = options;
  }

  newLock(id: string): Lock {
    return new UploadLock(id, this.options);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

class UploadLock implements Lock {
  readonly id: string;
  readonly options: UploadLockerOptions;
  #client: pg.PoolClient | null = null;
  #stopAsks: () => void = () => {};
  #done: (error?: unknown) => void = () => {};

  constructor(id: string, options: UploadLockerOptions) {
    this.id = id;
    this.options = options;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { connect, askRelease, onAsk, busy, timeoutMs = 30_000, retryMs = 100 } = this.options;
    const client = await connect();
    // A connection lost while held (a database restart) has taken the lock with it: the request holding it stops, as
    // when asked, rather than write on unguarded. Without a listener the lost connection's error would end the process.
    let lost = () => {};
    const onError = () => lost();
    client.on('error', onError);
    const done = (error?: unknown) => {
      client.off('error', onError);
      client.release(error instanceof Error ? error : error === undefined ? undefined : true);
    };
    const deadline = Date.now() + timeoutMs;
    let askedAt = -Infinity;
    try {
      for (;;) {
        const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as got', [
          UPLOAD_LOCK_CLASS,
          this.id,
        ]);
        if (rows[0]?.got) break;
        if (signal.aborted || Date.now() >= deadline) throw busy();
        // Asked again now and then: an ask sent before the holder started listening would otherwise be lost.
        if (Date.now() - askedAt >= ASK_EVERY_MS) {
          askedAt = Date.now();
          await askRelease(this.id);
        }
        await sleep(retryMs, signal);
      }
    } catch (error) {
      done(error instanceof Error && !('status_code' in error) ? error : undefined);
      throw error;
    }
    lost = () => void requestRelease();
    this.#client = client;
    this.#done = done;
    this.#stopAsks = onAsk(this.id, () => void requestRelease());
  }

  async unlock(): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error('Releasing an unlocked lock!');
    this.#client = null;
    this.#stopAsks();
    try {
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [UPLOAD_LOCK_CLASS, this.id]);
      this.#done();
    } catch (error) {
      // A connection that failed took its lock with it; it is not handed to anyone else.
      this.#done(error ?? true);
    }
  }
}
