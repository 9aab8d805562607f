import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../../../../tests/setup/auth-harness.ts';
import { reset } from '../rate-limit.ts';
import { resolveSession } from '../sessions.ts';
import { loginWithCode } from './codes.ts';
import { logout, normalizeEmail } from './login.ts';

const { track, mailedCode } = useAuthHarness();

describe('normalizeEmail', () => {
  it('trims and lowercases, and rejects empty or malformed addresses in Chinese', async () => {
    expect(normalizeEmail('  Someone@Example.COM ')).toBe('someone@example.com');
    expect(() => normalizeEmail('   ')).toThrow('login.error.emailEmpty');
    expect(() => normalizeEmail('not-an-email')).toThrow('error.emailInvalid');
    expect(() => normalizeEmail(`${'a'.repeat(250)}@example.com`)).toThrow('error.emailInvalid');
  });
});

describe('logout', () => {
  it('makes the token useless after logout', async () => {
    await reset('code:email:');
    const login = track(
      await loginWithCode('leaver@example.com', await mailedCode('leaver@example.com', '10.3.0.1'), { ip: '10.3.0.1' }),
    );
    expect(await resolveSession(login.token)).not.toBeNull();
    await logout(login.token);
    expect(await resolveSession(login.token)).toBeNull();
    await logout('');
    await logout('never-issued');
  });
});
