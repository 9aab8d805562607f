/**
 * Media as objects in an S3-compatible bucket (AWS S3, or a self-hosted store such as s3rver in development), through
 * the official AWS SDK. Objects are put with their Content-Type and immutable caching, so a CDN in front of the bucket
 * (MEDIA_BASE_URL) serves them as /media/ does. The SDK is loaded on first use: a site on local disk never loads it.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.ts';
import { contentTypeFor, IMMUTABLE_CACHE } from './content-type.ts';
import { checkKey, type MediaObject, type MediaStore } from './store-contract.ts';

/** A bucket and an optional key prefix inside it ('' for the bucket's root). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** One object as a listing shows it, its key relative to the store's prefix. */
export interface ListedObject {
  key: string;
  size: number;
  etag: string;
}

export interface S3Store extends MediaStore {
  /** Copies a local file to `key`, leaving the file where it is. */
  upload(localFile: string, key: string): Promise<void>;
  /** Every object under the store's prefix. */
  list(): AsyncGenerator<ListedObject>;
}

/** Objects one DeleteObjects request may name. */
const DELETE_BATCH = 1000;

type Sdk = typeof import('@aws-sdk/client-s3');
let loading: Promise<Sdk> | undefined;
const sdk = () => (loading ??= import('@aws-sdk/client-s3'));

/** An S3 client from the settings: S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the SDK's credential chain. */
export async function s3ClientFromEnv(): Promise<S3Client> {
  const { S3Client } = await sdk();
  const agent = { keepAlive: true, maxSockets: 256 };
  const settings = config();
  return new S3Client({
    region: settings.S3_REGION,
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    // Checksums only where S3 requires them: the SDK's default (a trailing CRC32 on every upload, sent as an
    // aws-chunked body) is not understood by many S3-compatible servers, s3rver among them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Every /media/ answer streamed from the bucket holds a socket while the player reads; the default pool is 50.
    requestHandler: { connectionTimeout: 5_000, httpAgent: agent, httpsAgent: agent },
  });
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The store for `location`; `client` defaults to one made from the environment. */
export function s3Store(location: S3Location, client?: S3Client): S3Store {
  const Bucket = location.bucket;
  const base = location.prefix ? `${checkKey(location.prefix)}/` : '';
  const objectKey = (key: string) => `${base}${checkKey(key)}`;
  let made: Promise<S3Client> | undefined;
  const s3 = () => (made ??= client ? Promise.resolve(client) : s3ClientFromEnv());

  async function upload(localFile: string, key: string): Promise<void> {
    const [{ PutObjectCommand }, c, { size }] = await Promise.all([sdk(), s3(), stat(localFile)]);
    await c.send(
      new PutObjectCommand({
        Bucket,
        Key: objectKey(key),
        Body: createReadStream(localFile),
        ContentLength: size,
        ContentType: contentTypeFor(key),
        CacheControl: IMMUTABLE_CACHE,
      }),
    );
  }

  async function* listUnder(prefix: string): AsyncGenerator<ListedObject> {
    const [{ ListObjectsV2Command }, c] = await Promise.all([sdk(), s3()]);
    let ContinuationToken: string | undefined;
    do {
      const page = await c.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) {
        if (o.Key?.startsWith(base)) yield { key: o.Key.slice(base.length), size: o.Size ?? 0, etag: o.ETag ?? '' };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async function get(key: string, range?: string, IfMatch?: string): Promise<Readable> {
    const [{ GetObjectCommand }, c] = await Promise.all([sdk(), s3()]);
    const out = await c.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: range, IfMatch }));
    // On Node the body is an http.IncomingMessage, a Readable.
    const body = out.Body as Readable;
    // Checked here too: some S3-compatible servers (s3rver) ignore If-Match.
    if (IfMatch && out.ETag !== IfMatch) {
      body.destroy();
      throw new Error(`media changed while being read: ${key}`);
    }
    return body;
  }

  return {
    upload,
    list: () => listUnder(base),

    async put(localFile, key) {
      await upload(localFile, key);
      await unlink(localFile);
    },

    async remove(keys, prefixes = []) {
      const all = keys.map(objectKey);
      for (const prefix of prefixes) {
        for await (const o of listUnder(`${objectKey(prefix)}/`)) all.push(objectKey(o.key));
      }
      if (all.length === 0) return;
      const [{ DeleteObjectsCommand }, c] = await Promise.all([sdk(), s3()]);
      for (let i = 0; i < all.length; i += DELETE_BATCH) {
        const Objects = all.slice(i, i + DELETE_BATCH).map((Key) => ({ Key }));
        const out = await c.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
        const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length) throw new Error(`media removal failed for ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
      }
    },

    async open(key) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'shanying-media-'));
      const file = path.join(dir, path.basename(key));
      const release = () => rm(dir, { recursive: true, force: true });
      try {
        await pipeline(await get(key), createWriteStream(file));
      } catch (error) {
        await release();
        if (isMissing(error)) throw new Error(`media not found in the bucket: ${key}`);
        throw error;
      }
      return { file, release };
    },

    async head(key): Promise<MediaObject | null> {
      const [{ HeadObjectCommand }, c] = await Promise.all([sdk(), s3()]);
      try {
        const out = await c.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { size: out.ContentLength ?? 0, etag: out.ETag ?? '""', lastModified: out.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    read(key, start, end, etag) {
      return get(key, `bytes=${start}-${end}`, etag);
    },
  };
}
