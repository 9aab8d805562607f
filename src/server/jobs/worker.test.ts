// inProcessWorkers: web servers work the job queue unless WORKERS=0 (or the older WORKER=off) hands it to `npm run
// worker`. startWorkers: the hourly upload sweep and the minutely merge of the search indexes are one schedule each,
// and their jobs run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../../tests/setup/test-db.ts';
import { loadConfig } from '../config.ts';
import { QUEUES, startQueue, stopQueue } from '../job-queue.ts';
import { GIN_PENDING_CRON, inProcessWorkers, startWorkers, SWEEP_CRON } from './worker.ts';

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
    expect(inProcessWorkers(loadConfig(env))).toBe(expected);
  });
});

describe('startWorkers', () => {
  it("schedules the upload sweep hourly and the search indexes' merge every minute, one schedule each however many processes start workers, and works their jobs", async () => {
    const t = await freshDb();
    const dir = mkdtempSync(path.join(tmpdir(), 'workers-'));
    const savedDataDir = process.env.DATA_DIR;
    process.env.DATA_DIR = dir;
    try {
      const boss = await startQueue(t.url);
      // Every web server and `npm run worker` starts workers: the schedule stays one row.
      await startWorkers(boss, { pollingIntervalSeconds: 0.5 });
      await startWorkers(boss, { pollingIntervalSeconds: 0.5 });
      const schedules = await boss.getSchedules(QUEUES.sweepUploads);
      expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[SWEEP_CRON, 'UTC']]);
      expect(boss.previewSchedule(SWEEP_CRON, { count: 3 }).map((d) => d.getUTCMinutes())).toEqual([17, 17, 17]);

      const pending = await boss.getSchedules(QUEUES.ginPending);
      expect(pending.map((s) => [s.cron, s.timezone])).toEqual([[GIN_PENDING_CRON, 'UTC']]);
      const next = boss.previewSchedule(GIN_PENDING_CRON, { count: 2 });
      expect(next[1]!.getTime() - next[0]!.getTime()).toBe(60_000);

      for (const name of [QUEUES.sweepUploads, QUEUES.ginPending]) {
        const id = await boss.send(name, {});
        let state: string | undefined;
        const deadline = Date.now() + 20_000;
        while (state !== 'completed' && state !== 'failed' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 200));
          state = (await boss.findJobs(name, { id: id! }))[0]?.state;
        }
        expect([name, state]).toEqual([name, 'completed']);
      }
    } finally {
      await stopQueue();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
      if (savedDataDir === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = savedDataDir;
    }
  });
});
