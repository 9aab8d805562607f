/**
 * Optimistic writes, queued per key (one id and one kind, such as `like:42`): sent one after another in the order the
 * viewer made them, each naming its end state, so rapid toggles reach the server in order and end in the last state.
 */

export interface QueuedWrite<T> {
  /** Sends the write; resolves to the server's answer. */
  send: () => Promise<T>;
  /** Shows the answer; called only while this write is still the latest of its key. */
  settle: (answer: T) => void;
  /** Takes back what the caller showed; called only when this write, still the latest of its key, was refused. */
  rollback: () => void;
}

const queues = new Map<string, { tail: Promise<unknown>; seq: number }>();

/**
 * Queues `write` behind earlier writes of `key`; resolves true once it is stored, false when it was refused. The caller
 * has already shown the change: an overtaken write's answer is ignored, since a later one names the end state.
 */
export function enqueueWrite<T>(key: string, write: QueuedWrite<T>): Promise<boolean> {
  const queue = queues.get(key) ?? { tail: Promise.resolve(), seq: 0 };
  queues.set(key, queue);
  const mine = ++queue.seq;
  const run = queue.tail.then(async () => {
    try {
      const answer = await write.send();
      if (queue.seq === mine) write.settle(answer);
      return true;
    } catch {
      if (queue.seq === mine) write.rollback();
      return false;
    }
  });
  queue.tail = run;
  return run;
}
