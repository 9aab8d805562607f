/** Account settings of the 设置 menu: who may see my likes and collections (隐私设置) and which notifications I get (通知设置). */
import { eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { users, type Privacy } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import type { NotificationKind } from './notifications.ts';
import { readPrivacy } from './visibility.ts';

/** Every notification kind a user may switch off, in the order the settings page lists them. */
export const NOTIFY_KINDS = [
  'like_video',
  'like_comment',
  'comment',
  'reply',
  'follow',
  'mention',
  'danmaku',
] as const satisfies readonly NotificationKind[];

export type NotifySettings = Record<(typeof NOTIFY_KINDS)[number], boolean>;

export interface AccountSettings {
  privacy: Privacy;
  notify: NotifySettings;
}

// Stored sparsely: only an explicit false silences a kind (notifications.notify reads the same rule).
function fullNotify(stored: Record<string, boolean>): NotifySettings {
  return Object.fromEntries(NOTIFY_KINDS.map((k) => [k, stored[k] !== false])) as NotifySettings;
}

/** A user's privacy and notification settings, every kind present. */
export async function getSettings(userId: number): Promise<AccountSettings> {
  const [row] = await db()
    .select({ privacy: users.privacy, notify: users.notifySettings })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound('error.userNotFound');
  return { privacy: readPrivacy(row.privacy), notify: fullNotify(row.notify) };
}

/** Changes some privacy flags (the others stay); returns the whole setting. */
export async function setPrivacy(userId: number, patch: Partial<Privacy>): Promise<Privacy> {
  const clean = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => (k === 'likesPublic' || k === 'collectsPublic') && typeof v === 'boolean'),
  );
  // One statement merges into the stored object, so two tabs changing different flags never undo each other.
  const [row] = await db()
    .update(users)
    .set({ privacy: sql`${users.privacy} || ${JSON.stringify(clean)}::jsonb` })
    .where(eq(users.id, userId))
    .returning({ privacy: users.privacy });
  if (!row) throw notFound('error.userNotFound');
  return readPrivacy(row.privacy);
}

/** Turns some notification kinds on or off (the others stay); returns every kind. */
export async function setNotify(userId: number, patch: Partial<NotifySettings>): Promise<NotifySettings> {
  const clean = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => (NOTIFY_KINDS as readonly string[]).includes(k) && typeof v === 'boolean'),
  );
  const [row] = await db()
    .update(users)
    .set({ notifySettings: sql`${users.notifySettings} || ${JSON.stringify(clean)}::jsonb` })
    .where(eq(users.id, userId))
    .returning({ notify: users.notifySettings });
  if (!row) throw notFound('error.userNotFound');
  return fullNotify(row.notify);
}
