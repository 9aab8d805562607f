/** Profile links for @mentions in comment text: which users the nicknames name, any number at a time. */
import { mentionedNames } from '../../shared/mention-text.ts';
import { MAX_MENTIONS, resolveMentions, type MentionedUser } from './mentions.ts';

/** The users named by `names` (exact nicknames; the earliest account wins a shared one); unknown names are left out. */
export async function usersByNickname(names: string[]): Promise<MentionedUser[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < names.length; i += MAX_MENTIONS) chunks.push(names.slice(i, i + MAX_MENTIONS));
  return (await Promise.all(chunks.map((chunk) => resolveMentions(chunk)))).flat();
}

/** Nickname → sec_uid for every user that `texts` mention. */
export async function mentionLinks(texts: string[]): Promise<Record<string, string>> {
  const names = [...new Set(texts.flatMap(mentionedNames))];
  return Object.fromEntries((await usersByNickname(names)).map((u) => [u.nickname, u.secUid]));
}
