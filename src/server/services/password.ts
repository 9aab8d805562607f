/** Password hashing with scrypt (N=2^17, r=8, p=1), stored as `scrypt$17$8$1$<salt b64>$<hash b64>`. */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit, { type LimitFunction } from 'p-limit';
import { config } from '../config.ts';
import { rateLimited } from '../errors.ts';

const LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LEN = 64;
const SALT_LEN = 16;
// 128 * N * r = 128 MiB for N=2^17, r=8; scrypt refuses anything above maxmem.
const MAX_MEM = 256 * 1024 * 1024;

/**
 * Hashes run on libuv's thread pool (UV_THREADPOOL_SIZE threads, 4 by default), which also compresses pages and reads
 * media and upload files. A burst of logins holding every thread for the fraction of a second a hash takes would stall
 * all of that, so hashes beyond this many wait their turn: it leaves two threads free, and it is no more than the cores
 * can run at once anyway, so logins lose no throughput.
 */
let hashing: LimitFunction | undefined;
const hashesAtOnce = () =>
  (hashing ??= pLimit(Math.max(1, Math.min(availableParallelism(), config().UV_THREADPOOL_SIZE - 2))));
/** Hashes that may wait at once; a login beyond them is told to retry (429) instead of holding its connection in line. */
export const HASHES_WAITING_MAX = 32;

function derive(plain: string, salt: Buffer, keyLen: number, options: ScryptOptions): Promise<Buffer> {
  const limit = hashesAtOnce();
  if (limit.pendingCount >= HASHES_WAITING_MAX) return Promise.reject(rateLimited(2));
  return limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(plain.normalize('NFKC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

/** Hashes a password with a fresh 16-byte salt. */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await derive(plain, salt, KEY_LEN, { N: 2 ** LOG_N, r: R, p: P, maxmem: MAX_MEM });
  return ['scrypt', LOG_N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  // Bounds keep a corrupt row from asking for gigabytes or hours of work.
  if (!Number.isInteger(logN) || !Number.isInteger(r) || !Number.isInteger(p)) return false;
  if (logN! < 10 || logN! > 20 || r! < 1 || r! > 32 || p! < 1 || p! > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || expected.length < 16) return false;
  const maxmem = Math.max(MAX_MEM, 256 * 2 ** logN! * r!);
  const actual = await derive(plain, salt, expected.length, { N: 2 ** logN!, r: r!, p: p!, maxmem });
  return timingSafeEqual(actual, expected);
}
