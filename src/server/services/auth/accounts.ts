/** Accounts as logins see them: the one a first code login creates, and the demo account the dialog offers. */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { db } from '../../db/client.ts';
import { DEMO_EMAIL, demoPassword } from '../../db/demo.ts';
import { users } from '../../db/schema.ts';
import { verifyPassword } from '../password.ts';
import type { Viewer } from '../sessions.ts';
import { viewerColumns } from './login.ts';

const SEC_UID_PREFIX = 'MS4wLjABAAAA';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// media/manifest.json ships avatars/a01.webp … a24.webp (accounts.test.ts checks it).
const DEFAULT_AVATARS = 24;

function randomSecUid(): string {
  const bytes = randomBytes(40);
  return SEC_UID_PREFIX + Array.from(bytes, (b) => URL_SAFE[b & 63]).join('');
}

function defaultAvatar(email: string): string {
  const n = createHash('sha256').update(email).digest().readUInt32BE(0) % DEFAULT_AVATARS;
  return `avatars/a${String(n + 1).padStart(2, '0')}.webp`;
}

/** The account of a (normalised) email, created with a random nickname and a default avatar when there is none. */
export async function findOrCreateUser(email: string): Promise<{ user: Viewer; created: boolean }> {
  const existing = await db().select(viewerColumns).from(users).where(eq(users.email, email)).limit(1);
  if (existing[0]) return { user: existing[0], created: false };
  const inserted = await db()
    .insert(users)
    .values({
      email,
      secUid: randomSecUid(),
      nickname: `用户${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
      avatar: defaultAvatar(email),
    })
    .onConflictDoNothing({ target: users.email })
    .returning(viewerColumns);
  if (inserted[0]) return { user: inserted[0], created: true };
  // Another request created it between our read and insert.
  const [raced] = await db().select(viewerColumns).from(users).where(eq(users.email, email)).limit(1);
  return { user: raced!, created: false };
}

let demoCheck: { key: string; ok: boolean } | undefined;

/** The demo account's credentials for the login dialog, while it exists and still has the seeded password; else null. */
export async function demoCredentials(): Promise<{ email: string; password: string } | null> {
  const [row] = await db()
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, DEMO_EMAIL), eq(users.isDemo, true)))
    .limit(1);
  if (!row?.passwordHash) return null;
  const password = demoPassword();
  // One scrypt per stored hash: a changed password changes the hash and is checked afresh.
  const key = `${row.passwordHash}\n${password}`;
  if (demoCheck?.key !== key) demoCheck = { key, ok: await verifyPassword(password, row.passwordHash) };
  return demoCheck.ok ? { email: DEMO_EMAIL, password } : null;
}
