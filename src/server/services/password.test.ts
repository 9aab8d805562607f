import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scryptSync } from 'node:crypto';
import { HASHES_WAITING_MAX, hashPassword, verifyPassword } from './password.ts';
import { ServiceError } from '../errors.ts';

describe('password', () => {
  it('hashes in the documented format and verifies', async () => {
    const stored = await hashPassword('shanying-demo');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    const [, , , , salt, key] = stored.split('$');
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(64);
    expect(await verifyPassword('shanying-demo', stored)).toBe(true);
    expect(await verifyPassword('shanying-dem0', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('同一个密码'), hashPassword('同一个密码')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('同一个密码', a)).toBe(true);
  });

  it('rejects malformed hashes without throwing', async () => {
    for (const bad of ['', 'plain', 'scrypt$17$8$1$$', 'bcrypt$17$8$1$YWJj$YWJj', 'scrypt$40$8$1$YWJjZA==$YWJjZA==']) {
      expect(await verifyPassword('x', bad)).toBe(false);
    }
  });

  it('a burst of hashes leaves the thread pool room: compressing a page does not wait for them', async () => {
    // Six hashes would hold all four of libuv's threads for a few hundred ms each; a page's compression queued behind
    // them would finish only after the first of them.
    const order: string[] = [];
    const hashes = Array.from({ length: 6 }, (_, i) => hashPassword(`密码${i}`).then(() => order.push('hash')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await promisify(gzip)(Buffer.alloc(4096, 'a')).then(() => order.push('gzip'));
    await Promise.all(hashes);
    expect(order[0]).toBe('gzip');
  });

  it('a line of hashes longer than it may be is refused with a retry, not queued without end', async () => {
    const salt = Buffer.alloc(16, 7);
    const cheap = [
      'scrypt',
      10,
      8,
      1,
      salt.toString('base64'),
      scryptSync('口令', salt, 64, { N: 2 ** 10, r: 8, p: 1 }).toString('base64'),
    ].join('$');
    const answers = await Promise.allSettled(
      Array.from({ length: HASHES_WAITING_MAX + 10 }, () => verifyPassword('口令', cheap)),
    );
    const refused = answers.filter((a) => a.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(10);
    for (const a of refused)
      expect((a as PromiseRejectedResult).reason).toMatchObject({ kind: 'rate_limited', retryAfter: 2 });
    expect(refused.every((a) => (a as PromiseRejectedResult).reason instanceof ServiceError)).toBe(true);
    expect(
      answers.filter((a) => a.status === 'fulfilled').every((a) => (a as PromiseFulfilledResult<boolean>).value),
    ).toBe(true);
    // Once the line has gone down, hashes are taken again.
    expect(await verifyPassword('口令', cheap)).toBe(true);
  });
});
