import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { sessions, users } from '../db/schema.ts';
import { createSession, hashToken, resolveSession, revokeSession } from './sessions.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

describe('sessions', () => {
  it('stores only the hash of a random token, resolves it, and revokes it', async () => {
    const [u] = await t.db.select().from(users).limit(1);
    const { token } = await createSession(u!.id, 'test');
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, u!.id));
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect((await resolveSession(token))?.id).toBe(u!.id);
    const other = await createSession(u!.id);
    expect(other.token).not.toBe(token);
    await revokeSession(token);
    expect(await resolveSession(token)).toBeNull();
    expect((await resolveSession(other.token))?.id).toBe(u!.id);
  });

  it('refuses unknown, empty and absurd tokens', async () => {
    expect(await resolveSession('nope')).toBeNull();
    expect(await resolveSession('')).toBeNull();
    expect(await resolveSession(undefined)).toBeNull();
    expect(await resolveSession('x'.repeat(10_000))).toBeNull();
  });

  it('refuses an expired session', async () => {
    const [u] = await t.db.select().from(users).limit(1);
    const { token } = await createSession(u!.id);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(await resolveSession(token)).toBeNull();
  });
});
