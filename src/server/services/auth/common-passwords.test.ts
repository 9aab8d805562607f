import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS_FILE, isCommonPassword } from './common-passwords.ts';

describe('the common-password list', () => {
  it('holds the 10,000 most common passwords', () => {
    const lines = readFileSync(createRequire(import.meta.url).resolve(COMMON_PASSWORDS_FILE), 'utf8')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(9_999);
  });

  it('knows the usual first guesses, in any case, and not a passphrase', () => {
    for (const p of ['123456', 'password', 'PASSWORD', 'qwerty123', '5201314', 'iloveyou', '1qaz2wsx'])
      expect(isCommonPassword(p), p).toBe(true);
    for (const p of ['correcthorsebatterystaple', '闪映的密码很长', 'shanying-demo'])
      expect(isCommonPassword(p), p).toBe(false);
  });
});
