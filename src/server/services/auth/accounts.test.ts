import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../../../../tests/setup/auth-harness.ts';
import { DEMO_EMAIL, demoPassword } from '../../db/demo.ts';
import { users } from '../../db/schema.ts';
import { demoCredentials } from './accounts.ts';

const h = useAuthHarness();

describe('accounts', () => {
  it('offers the demo credentials only while the demo account keeps the seeded password', async () => {
    const { db } = h.t;
    expect(await demoCredentials()).toEqual({ email: DEMO_EMAIL, password: demoPassword() });
    const [demo] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    await db.update(users).set({ passwordHash: null }).where(eq(users.id, demo!.id));
    expect(await demoCredentials()).toBeNull();
    await db.update(users).set({ passwordHash: demo!.passwordHash }).where(eq(users.id, demo!.id));
    expect(await demoCredentials()).toEqual({ email: DEMO_EMAIL, password: demoPassword() });
  });

  it('gives new accounts avatars that exist in the media manifest', () => {
    const manifest = readFileSync(new URL('../../../../media/manifest.json', import.meta.url), 'utf8');
    for (let n = 1; n <= 24; n++) expect(manifest).toContain(`"avatars/a${String(n).padStart(2, '0')}.webp"`);
  });
});
