/** What the settings page's 账号与数据 section shows: the newest data export, and how a deletion can be confirmed. */
import { eq } from 'drizzle-orm';
import type { AccountState } from '../../shared/account.ts';
import { db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { maskEmail } from './account-deletion.ts';
import { latestExport } from './data-export.ts';

export async function accountState(userId: number): Promise<AccountState> {
  const [[user], exported] = await Promise.all([
    db().select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)),
    latestExport(userId),
  ]);
  return { export: exported, email: user?.email ? maskEmail(user.email) : null, hasPassword: !!user?.passwordHash };
}
