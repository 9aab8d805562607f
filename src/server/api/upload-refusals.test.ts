// What a hook of tus's throws keeps its own headers: tus passes on only the status and body of onResponseError's
// mapping, and a client told 429 or 503 without Retry-After cannot know when to come back.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimited } from '../errors.ts';
import { EnvelopeServer, fromServiceError } from './upload-refusals.ts';

let dir: string;
let failure: unknown;
let server: EnvelopeServer;
let node: http.Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'upload-refusals-'));
  server = new EnvelopeServer({
    path: '/files',
    datastore: new FileStore({ directory: dir }),
    onUploadCreate: () => {
      throw failure;
    },
  });
  node = http.createServer((req, res) => void server.handle(req, res));
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
});

afterAll(async () => {
  node.closeAllConnections();
  await new Promise((resolve) => node.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const create = { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' };
/** The same creation through both of tus's entries: node:http (`handle`) and fetch (`handleWeb`). */
const bothDoors = async () => [
  await fetch(`${base}/files`, { method: 'POST', headers: create }),
  await server.handleWeb(new Request(`${base}/files`, { method: 'POST', headers: create })),
];

describe('a refusal thrown in a hook', () => {
  it.each([
    ['a rate limit', () => fromServiceError(rateLimited(30)), 429, '30', '操作太频繁，请稍后再试'],
    [
      'the database down (not a tus error)',
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      503,
      '2',
      '服务暂时不可用，请稍后再试',
    ],
  ])('%s answers its Retry-After', async (_what, error, status, retryAfter, msg) => {
    failure = error();
    for (const res of await bothDoors()) {
      expect(res.status).toBe(status);
      expect(res.headers.get('retry-after')).toBe(retryAfter);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ code: String(status), msg, data: null });
    }
  });

  it('leaves no header behind for the next answer', async () => {
    failure = fromServiceError(rateLimited(30));
    await bothDoors();
    failure = Object.assign(new Error('x'), { status_code: 404, body: 'Not found\n' });
    for (const res of await bothDoors()) {
      expect(res.status).toBe(404);
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });
});
