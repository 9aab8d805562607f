/**
 * `npm run media:to-store`: copies the sample media (public/media, served at /media/…) and DATA_DIR/media into the
 * bucket MEDIA_STORE names (s3://<bucket>[/<prefix>], with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and AWS_*
 * credentials as the server reads them). Safe to run again: what is already there is skipped. Prints one line per
 * source directory and exits 1 on a failure.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../src/server/config.ts';
import { copyToStore } from '../src/server/media/copy-to-store.ts';
import { mediaDir } from '../src/server/media/paths.ts';
import { s3Store } from '../src/server/media/s3-store.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const target = config().MEDIA_STORE;
  if (target.kind !== 's3') throw new Error('MEDIA_STORE names no bucket: set it to s3://<bucket>[/<prefix>]');
  const where = `s3://${target.bucket}${target.prefix ? `/${target.prefix}` : ''}`;
  const counts = await copyToStore(s3Store(target), [path.join(ROOT, 'public', 'media'), mediaDir()]);
  for (const c of counts) {
    const mb = (c.bytes / 1024 / 1024).toFixed(1);
    process.stdout.write(
      `${path.relative(process.cwd(), c.dir) || '.'} → ${where}: ${c.files} files, ${c.copied} copied (${mb} MB), ${c.skipped} already there\n`,
    );
  }
} catch (error) {
  process.stderr.write(`media:to-store failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
