import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

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
});
