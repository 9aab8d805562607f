/** A real S3-compatible server (s3rver, as `npm run s3` starts it) for one test file, and the app's settings for it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startS3Server } from '../../scripts/s3-server.mjs';

const SETTINGS = [
  'MEDIA_STORE',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_FORCE_PATH_STYLE',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
] as const;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings a separate process (a worker, an app server) needs to reach the same bucket. */
  env: Record<string, string>;
  /** Stops the server, deletes its directory and puts the settings back. */
  close(): Promise<void>;
}

/** Starts s3rver with a fresh bucket and points MEDIA_STORE at `s3://<bucket>/<prefix>` in this process. */
export async function startTestS3(prefix = 'media'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = await startS3Server({ dir, bucket: 'shanying-test' });
  const env: Record<string, string> = {
    MEDIA_STORE: `s3://${server.bucket}${prefix ? `/${prefix}` : ''}`,
    S3_ENDPOINT: server.endpoint,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  return {
    endpoint: server.endpoint,
    bucket: server.bucket,
    env,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}
