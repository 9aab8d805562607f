import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearStalePostmaster, startEmbedded } from './embedded.ts';
import { startDatabase } from './lifecycle.ts';

// prctl(PR_SET_CHILD_SUBREAPER), run the command, then reap every child (adopted ones too) until none is left.
const SUBREAPER = `
import ctypes, os, sys
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
`;

const quiet = { log: () => {}, seed: false, databaseUrl: '' } as const;

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

function processState(pid: number): string {
  try {
    const stat = spawnSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' }).stdout;
    return stat ? stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) : 'gone';
  } catch {
    return 'gone';
  }
}

describe('embedded PostgreSQL', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'shanying-embedded-'));
    await chmod(root, 0o755);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('removes a stale postmaster.pid (dead PID, or a live PID that is not its postgres) and starts', async () => {
    const dir = path.join(root, 'data', 'pg');
    const first = await startEmbedded({ databaseDir: dir, onError: () => {} });
    const pidFile = path.join(dir, 'postmaster.pid');
    const valid = await readFile(pidFile, 'utf8');
    // A postmaster whose Node parent is alive belongs to a running server: never stopped from under it.
    await expect(clearStalePostmaster(dir)).rejects.toThrow(/in use by a running server/);
    await first.stop();
    expect(existsSync(pidFile)).toBe(false);

    const dead = spawnSync('true').pid!;
    for (const pid of [dead, process.pid]) {
      await writeFile(pidFile, valid.replace(/^\d+/, String(pid)));
      const again = await startEmbedded({ databaseDir: dir, onError: () => {} });
      try {
        expect(again.initialised).toBe(false);
        const rows = await query<{ one: number }>(again.adminUrl, 'SELECT 1 AS one');
        expect(rows[0]!.one).toBe(1);
      } finally {
        await again.stop();
      }
    }
    // Ours is alive and was left alone.
    expect(processState(process.pid)).not.toBe('gone');
    expect(await clearStalePostmaster(dir)).toBe('none');
  });

  it('starts after a kill -9 of the Node process that ran it, with every committed row kept', async () => {
    // The same directory as above (when that test ran first): saves an initdb.
    const dataDir = path.join(root, 'data');
    const lifecycle = pathToFileURL(fileURLToPath(new URL('./lifecycle.ts', import.meta.url))).href;
    const script = path.join(root, 'child.mjs');
    await writeFile(
      script,
      `import { createRequire } from 'node:module';
       const pg = createRequire(${JSON.stringify(lifecycle)})('pg');
       const { startDatabase } = await import(${JSON.stringify(lifecycle)});
       const db = await startDatabase({ dataDir: ${JSON.stringify(dataDir)}, seed: false, databaseUrl: '', log: () => {} });
       const client = new pg.Client({ connectionString: db.url });
       await client.connect();
       await client.query("INSERT INTO feedback (content) VALUES ('kill -9 canary')");
       await client.end();
       console.log('READY ' + process.pid);
       setInterval(() => {}, 1000);`,
    );
    // The child runs under a tiny python3 subreaper (when there is one) that adopts and later reaps the orphaned
    // postmaster; this machine's PID 1 does not reap, so it would otherwise stay behind as a zombie.
    const python = spawnSync('python3', ['-c', 'pass']).status === 0;
    const child = python
      ? spawn('python3', ['-c', SUBREAPER, process.execPath, script], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('close', resolve));
    let output = '';
    const nodePid = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const ready = /READY (\d+)/.exec(output);
        if (ready) resolve(Number(ready[1]));
      });
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => reject(new Error(`child exited (${code}) before it was ready: ${output}`)));
    });
    process.kill(nodePid, 'SIGKILL');
    if (!python) await exited;

    // The orphaned postmaster is still running and still owns postmaster.pid.
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const orphan = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    expect(['S', 'R', 'D']).toContain(processState(orphan));

    const db = await startDatabase({ ...quiet, dataDir });
    try {
      expect(db.embedded).toBe(true);
      expect(['gone', 'Z']).toContain(processState(orphan));
      const rows = await query<{ content: string }>(db.url, 'SELECT content FROM feedback');
      expect(rows.map((r) => r.content)).toEqual(['kill -9 canary']);
    } finally {
      await db.stop();
    }
    expect(existsSync(pidFile)).toBe(false);
    await exited;
  });
});
