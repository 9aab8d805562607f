/** @mentions in comment text: which nicknames a text names, and which users they are. */
import { asc, inArray } from 'drizzle-orm';
import { mentionedNames } from '../../shared/mention-text.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { users } from '../db/schema.ts';

export const MAX_MENTIONS = 10;

export interface MentionedUser {
  id: number;
  secUid: string;
  nickname: string;
}

/** The distinct nicknames written as @nickname, in order of first appearance, at most 10. */
export function extractMentions(text: string): string[] {
  return mentionedNames(text).slice(0, MAX_MENTIONS);
}

/** The users whose nickname equals one of `names` exactly; a nickname shared by several users names the earliest account. */
export async function resolveMentions(names: string[], q: DbOrTx = db()): Promise<MentionedUser[]> {
  if (names.length === 0) return [];
  const rows = await q
    .select({ id: users.id, secUid: users.secUid, nickname: users.nickname })
    .from(users)
    .where(inArray(users.nickname, names.slice(0, MAX_MENTIONS)))
    .orderBy(asc(users.id));
  const byName = new Map<string, MentionedUser>();
  for (const r of rows) if (!byName.has(r.nickname)) byName.set(r.nickname, r);
  return names.flatMap((n) => byName.get(n) ?? []);
}
