/**
 * Whether the work in progress may read from a replica. The two doors (the API router and the page middleware) open a
 * replica scope for anonymous GETs; everything else (a logged-in viewer, any write, the job workers) reads the primary,
 * which gives read-your-writes without tracking what anyone wrote.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  replica: boolean;
}

const storage = new AsyncLocalStorage<Scope>();

/** Runs `fn` with its plain reads allowed on a replica (until it writes: see `stickToPrimary`). */
export function withReplicaReads<T>(fn: () => T): T {
  return storage.run({ replica: true }, fn);
}

/** Whether a plain read issued now may go to a replica: true, false (a request that has written), or undefined outside any scope. */
export function replicaReadsAllowed(): boolean | undefined {
  return storage.getStore()?.replica;
}

/** After a write, the rest of the request reads the primary, so it sees what it just wrote (a search logged, a view counted). */
export function stickToPrimary(): void {
  const scope = storage.getStore();
  if (scope) scope.replica = false;
}
