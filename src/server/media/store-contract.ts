/** The media store's contract, shared by its drivers (store.ts for local files, s3-store.ts for a bucket). */
import type { Readable } from 'node:stream';

/** What serving needs to know about a stored file before reading it. */
export interface MediaObject {
  size: number;
  /** A strong validator, quoted as HTTP sends it. */
  etag: string;
  lastModified: Date;
}

export interface MediaStore {
  /** Moves a finished local file to `key` (a relative path such as `works/<id>/540.mp4`); the local file is gone after. */
  put(localFile: string, key: string): Promise<void>;
  /** Removes the given keys and everything under the given prefixes; missing ones are no error. */
  remove(keys: string[], prefixes?: string[]): Promise<void>;
  /** A local file to read `key` from (a remote store downloads it first); call `release` when done. */
  open(key: string): Promise<{ file: string; release(): Promise<void> }>;
  /** Size and validators of `key`, or null when there is no such file. */
  head(key: string): Promise<MediaObject | null>;
  /** Bytes `start` to `end` (inclusive) of `key`; with `etag`, fails rather than read a file replaced since head(). */
  read(key: string, start: number, end: number, etag?: string): Promise<Readable>;
}

/** Keys are relative, '/'-separated, without '.' or '..' segments. */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (!key || key.startsWith('/') || key.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`invalid media key: ${key}`);
  }
  return key;
}
