/**
 * The tus door as a server serves it, for tests: a fresh database (the upload locks take their own connections to it,
 * the direct line, as a server's do), DATA_DIR in a new temporary folder, and serveUpload on a free port. `close`
 * stops the server, drops the database and the folder, and puts back every environment variable it or `keep` names.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveUpload } from '../../src/server/api/upload.ts';
import { freshDb, type TestDb } from './test-db.ts';

export interface UploadDoor {
  t: TestDb;
  /** The temporary folder; DATA_DIR is its `data`. */
  dir: string;
  /** http://127.0.0.1:<port> */
  base: string;
  close(): Promise<void>;
}

export async function openUploadDoor(label: string, keep: string[] = []): Promise<UploadDoor> {
  const saved = Object.fromEntries(
    ['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATA_DIR', ...keep].map((k) => [k, process.env[k]]),
  );
  const t = await freshDb();
  process.env.DATABASE_URL = t.url;
  delete process.env.DATABASE_DIRECT_URL;
  const dir = mkdtempSync(path.join(tmpdir(), `${label}-`));
  process.env.DATA_DIR = path.join(dir, 'data');
  const server = http.createServer((req, res) => void serveUpload(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    t,
    dir,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
      rmSync(dir, { recursive: true, force: true });
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}
