/**
 * The cluster's object store: scripts/s3-server.mjs (s3rver, an S3 API server over a directory, from npm) in a process
 * of its own, with a bucket and a key pair made for this run. The app servers and the worker write through the AWS SDK
 * with the key pair; HAProxy sends /media/ to it (reads need no credentials, as from a public bucket behind a CDN).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isListening, Service, waitFor } from './processes.mjs';

export async function startObjectStore({ root, dir, logDir, port, bucket = 'shanying', prefix = 'media' }) {
  const accessKey = `cluster${randomBytes(6).toString('hex')}`;
  const secretKey = randomBytes(24).toString('base64url');
  const service = new Service(
    's3',
    process.execPath,
    [
      path.join(root, 'scripts', 's3-server.mjs'),
      '--port',
      String(port),
      '--dir',
      dir,
      '--bucket',
      bucket,
      '--access-key',
      accessKey,
      // In one argument: a base64url secret may start with '-', which parseArgs would take for an option.
      `--secret-key=${secretKey}`,
    ],
    // The key pair is on the command line (anyone on the machine can read it there): it is made for this run and
    // dies with it. A store that outlives a run takes its keys from a file or the environment instead.
    { env: { PATH: process.env.PATH, HOME: process.env.HOME }, cwd: root, logFile: path.join(logDir, 's3.log') },
  ).start();
  await waitFor('the S3 server listens', () => isListening(port), { detail: () => service.tail() });
  return {
    service,
    bucket,
    /** The path HAProxy puts in front of a /media/ key (deploy/haproxy.cfg, MEDIA_S3_PATH). */
    mediaPath: `/${bucket}/${prefix}`,
    env: {
      MEDIA_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: accessKey,
      AWS_SECRET_ACCESS_KEY: secretKey,
    },
  };
}
