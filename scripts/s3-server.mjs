/**
 * A local S3-compatible server for development, tests and the cluster: s3rver (an HTTP server implementing the S3 API
 * over a directory) with one bucket created, readable without credentials (as a public bucket behind a CDN is).
 *
 *   node scripts/s3-server.mjs [--port 9000] [--host 127.0.0.1] [--dir .s3-data] [--bucket shanying]
 *                              [--access-key S3RVER] [--secret-key S3RVER] [--verbose]
 *
 * Defaults are shown. Once listening it prints one JSON line to stdout, e.g.
 *   {"msg":"s3 ready","endpoint":"http://127.0.0.1:9000","bucket":"shanying","dir":"/abs/.s3-data"}
 * and runs until SIGINT/SIGTERM. Point the app at it with
 *   MEDIA_STORE=s3://shanying/media S3_ENDPOINT=http://127.0.0.1:9000 S3_FORCE_PATH_STYLE=1
 *   AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER
 * With the prefix `media`, the object of /media/<key> is /<bucket>/media/<key>: a proxy can send /media/ straight to
 * the server by putting the bucket's name in front of the path (addressing is path-style only, whatever the Host).
 * Objects answer with Range (206), ETag, Content-Type and immutable Cache-Control. Writes need the credentials;
 * reads do not.
 * Tests import startS3Server() instead.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import account from 's3rver/lib/models/account.js';

/**
 * Starts s3rver on `port` (0 picks a free one) over `dir` with `bucket` made; resolves when it listens.
 * @param {{ port?: number, host?: string, dir: string, bucket?: string, accessKey?: string, secretKey?: string, silent?: boolean }} options
 * @returns {Promise<{ endpoint: string, port: number, bucket: string, close(): Promise<void> }>}
 */
export async function startS3Server({
  port = 0,
  host = '127.0.0.1',
  dir,
  bucket = 'shanying',
  accessKey = 'S3RVER',
  secretKey = 'S3RVER',
  silent = true,
}) {
  mkdirSync(dir, { recursive: true });
  // s3rver knows one built-in key pair (S3RVER/S3RVER); others are added to its one account.
  if (accessKey !== 'S3RVER') account.DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);
  // Path-style only: otherwise s3rver reads any Host that is not an IP or localhost (a proxy passing the site's name)
  // as a bucket name.
  const server = new S3rver({
    port,
    address: host,
    directory: path.resolve(dir),
    silent,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    bucket,
    close: () => server.close(),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '9000' },
      host: { type: 'string', default: '127.0.0.1' },
      dir: { type: 'string', default: '.s3-data' },
      bucket: { type: 'string', default: 'shanying' },
      'access-key': { type: 'string', default: 'S3RVER' },
      'secret-key': { type: 'string', default: 'S3RVER' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const started = await startS3Server({
    port: Number(values.port),
    host: values.host,
    dir: values.dir,
    bucket: values.bucket,
    accessKey: values['access-key'],
    secretKey: values['secret-key'],
    silent: !values.verbose,
  });
  process.stdout.write(
    `${JSON.stringify({ msg: 's3 ready', endpoint: started.endpoint, bucket: started.bucket, dir: path.resolve(values.dir) })}\n`,
  );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => void started.close().finally(() => process.exit(0)));
  }
}
