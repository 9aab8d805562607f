import { describe, expect, it } from 'vitest';
import { enqueueWrite } from './write-queue.ts';

/** A write whose answer the test releases by hand, recording when it was sent and what it settled. */
function deferred(log: string[], name: string, state: boolean) {
  let answer!: () => void;
  let refuse!: () => void;
  const write = {
    send: () => {
      log.push(`send ${name}`);
      return new Promise<boolean>((resolve, reject) => {
        answer = () => resolve(state);
        refuse = () => reject(new Error('refused'));
      });
    },
    settle: (s: boolean) => log.push(`settle ${name} ${s}`),
    rollback: () => log.push(`rollback ${name}`),
  };
  return { write, answer: () => answer(), refuse: () => refuse() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('enqueueWrite', () => {
  it('sends one write of a key at a time, in order, and only the latest settles', async () => {
    const log: string[] = [];
    const a = deferred(log, 'a', true);
    const b = deferred(log, 'b', false);
    const c = deferred(log, 'c', true);
    const done = [enqueueWrite('like:1', a.write), enqueueWrite('like:1', b.write), enqueueWrite('like:1', c.write)];
    await tick();
    expect(log).toEqual(['send a']);
    a.answer();
    await tick();
    b.answer();
    await tick();
    c.answer();
    expect(await Promise.all(done)).toEqual([true, true, true]);
    expect(log).toEqual(['send a', 'send b', 'send c', 'settle c true']);
  });

  it('rolls back a refused latest write, and ignores a refused overtaken one', async () => {
    const log: string[] = [];
    const a = deferred(log, 'a', true);
    const b = deferred(log, 'b', false);
    const done = [enqueueWrite('like:2', a.write), enqueueWrite('like:2', b.write)];
    await tick();
    a.refuse();
    await tick();
    b.refuse();
    expect(await Promise.all(done)).toEqual([false, false]);
    expect(log).toEqual(['send a', 'send b', 'rollback b']);
  });

  it('keeps keys apart', async () => {
    const log: string[] = [];
    const a = deferred(log, 'a', true);
    const b = deferred(log, 'b', true);
    const done = [enqueueWrite('like:3', a.write), enqueueWrite('collect:3', b.write)];
    await tick();
    expect(log).toEqual(['send a', 'send b']);
    b.answer();
    a.answer();
    await Promise.all(done);
    expect(log).toEqual(['send a', 'send b', 'settle b true', 'settle a true']);
  });
});
