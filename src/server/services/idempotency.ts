/**
 * Writes a client may send again without making them twice (a comment, a message, a work published). The client names
 * each write with a key of its own (the Idempotency-Key header) and sends the same key when it does not know whether
 * the first attempt was made: the database failed over under it, the answer was a 503, the network dropped it.
 *
 * The key is stored by the write's own transaction, next to the row it made: either both are committed or neither is.
 * A repeat finds the key and answers the row made the first time; a repeat racing the first attempt waits on the key's
 * primary key until that attempt ends, and either finds it committed (KeyTaken: answer its row) or makes the write.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import type { DbOrTx } from '../db/types.ts';
import { invalid, ServiceError } from '../errors.ts';

/** What a key may look like: a UUID, a ULID, any 8-128 URL-safe characters. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** How long a key is remembered: a client retries within seconds; a day covers a laptop closed mid-write. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** The writes that take a key; each names what its resultId is. */
export type OnceScope = 'comment' | 'message' | 'work';

/** One write's key, as the route hands it to the service that makes the write. */
export interface OnceKey {
  userId: number;
  key: string;
  scope: OnceScope;
  /** A hash of the scope and the request's fields: the same key sent with another request is refused. */
  fingerprint: string;
}

/** Thrown inside a write's transaction when its key was committed by another attempt meanwhile (it rolls back). */
export class KeyTaken extends Error {
  constructor() {
    super('idempotency key taken');
    this.name = 'KeyTaken';
  }
}

/** The key of one request: `raw` as the client sent it (validated), with the request's fingerprint. */
export function onceKey(userId: number, raw: string, scope: OnceScope, fields: unknown): OnceKey {
  if (!IDEMPOTENCY_KEY.test(raw)) throw invalid('error.idempotencyKeyInvalid');
  const fingerprint = createHash('sha256')
    .update(`${scope}\n${JSON.stringify(fields ?? null)}`)
    .digest('base64url');
  return { userId, key: raw, scope, fingerprint };
}

const fresh = () => gt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS));

/**
 * The row the key's write made, when a write with this key was committed within the day; undefined when none was.
 * The same key with another request (another scope or other fields) is a 409.
 */
export async function priorResult(once: OnceKey, q: DbOrTx = db()): Promise<number | undefined> {
  const [row] = await q
    .select({
      scope: idempotencyKeys.scope,
      fingerprint: idempotencyKeys.fingerprint,
      resultId: idempotencyKeys.resultId,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, once.userId), eq(idempotencyKeys.key, once.key), fresh()));
  if (!row) return undefined;
  if (row.scope !== once.scope || row.fingerprint !== once.fingerprint)
    throw new ServiceError('conflict', 'error.idempotencyKeyReused');
  return row.resultId;
}

/**
 * Stores the key with the row its write made, inside that write's transaction `tx`. A key another attempt committed
 * meanwhile throws KeyTaken (the caller's transaction rolls back); a key older than a day is taken over.
 */
export async function claimOnce(tx: DbOrTx, once: OnceKey | undefined, resultId: number): Promise<void> {
  if (!once) return;
  const stored = await tx
    .insert(idempotencyKeys)
    .values({ userId: once.userId, key: once.key, scope: once.scope, fingerprint: once.fingerprint, resultId })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { scope: once.scope, fingerprint: once.fingerprint, resultId, createdAt: sql`now()` },
      setWhere: lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)),
    })
    .returning({ resultId: idempotencyKeys.resultId });
  if (stored.length === 0) throw new KeyTaken();
}

/** Clears the keys past their day (a write in a hundred does, after its own transaction). */
export async function sweepKeys(): Promise<void> {
  await db()
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)));
}
