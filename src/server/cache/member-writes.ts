/**
 * The signal that a member wrote something (any write of theirs through the API, their own settings included): the
 * copies kept of the pages about them (page-answers.ts) go at once. Raised here and, through shared-writes.ts, on every
 * other app server on the database.
 */
type Listener = (member: number) => void;

const listeners = new Set<Listener>();

/** Calls `listener` with the member's id after each of their writes; returns what stops it. */
export function onMemberWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener that `member` wrote. */
export function memberWrote(member: number): void {
  for (const listener of listeners) listener(member);
}
