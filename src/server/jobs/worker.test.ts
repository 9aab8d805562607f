/** inProcessWorkers: web servers work the job queue unless WORKERS=0 (or the older WORKER=off) hands it to `npm run worker`. */
import { describe, expect, it } from 'vitest';
import { inProcessWorkers } from './worker.ts';

describe('inProcessWorkers', () => {
  it.each([
    [{}, true],
    [{ WORKERS: '1' }, true],
    [{ WORKER: 'on' }, true],
    [{ WORKERS: '0' }, false],
    [{ WORKERS: 'off' }, false],
    [{ WORKER: 'off' }, false],
    [{ WORKER: 'OFF' }, false],
    [{ WORKERS: '1', WORKER: 'off' }, false],
  ])('%o → %s', (env, expected) => {
    expect(inProcessWorkers(env as NodeJS.ProcessEnv)).toBe(expected);
  });
});
