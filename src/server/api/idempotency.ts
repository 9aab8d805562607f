/**
 * The Idempotency-Key header on the writes a client may send again (services/idempotency.ts): a request without one
 * is made as always; with one, a key already used answers what its first write made (header Idempotent-Replayed),
 * and a new key is stored by the write's own transaction.
 */
import type { Viewer } from '../services/sessions.ts';
import { onceKey, priorResult, sweepKeys, type OnceKey, type OnceScope } from '../services/idempotency.ts';
import type { RouteContext } from './registry.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Runs a write under the request's key: `make` makes it (handing the key to the service's transaction), `replay`
 * answers from the id of what an earlier attempt with the same key made.
 */
export async function once<T>(
  ctx: RouteContext<unknown, Viewer>,
  scope: OnceScope,
  make: (once: OnceKey | undefined) => Promise<T>,
  replay: (resultId: number) => Promise<T>,
): Promise<T> {
  const raw = ctx.request.headers.get(IDEMPOTENCY_HEADER);
  if (raw === null) return make(undefined);
  const key = onceKey(ctx.viewer.id, raw, scope, ctx.input);
  const replayed = async (resultId: number) => {
    ctx.headers.set('Idempotent-Replayed', 'true');
    return replay(resultId);
  };
  const prior = await priorResult(key);
  if (prior !== undefined) return replayed(prior);
  try {
    const made = await make(key);
    if (Math.random() < 0.01) await sweepKeys().catch(() => undefined);
    return made;
  } catch (error) {
    // Another attempt with the key committed while this one ran (its transaction met the key, or the row the write
    // needed was used by it: an upload published): its write is the one.
    const taken = await priorResult(key).catch(() => undefined);
    if (taken === undefined) throw error;
    return replayed(taken);
  }
}
