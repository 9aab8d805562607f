/** The seeded demo account, whose credentials the login dialog's password tab pre-fills. */
import { and, eq } from 'drizzle-orm';
import { config } from '../config.ts';
import type { Db } from './client.ts';
import { users } from './schema.ts';

export const DEMO_EMAIL = 'demo@shanying.dev';
export const DEMO_NICKNAME = '闪映体验官';

/** The demo password: DEMO_PASSWORD, else `shanying-demo`. */
export function demoPassword(): string {
  return config().DEMO_PASSWORD;
}

/** Whether the seeded demo account exists, i.e. whether the login dialog should offer its credentials. */
export async function hasDemoAccount(db: Db): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, DEMO_EMAIL), eq(users.isDemo, true)))
    .limit(1);
  return rows.length > 0;
}
