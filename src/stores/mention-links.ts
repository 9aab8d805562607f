/** Profile links for @mentions in comment text: which nicknames name which users, asked once per name. */
import { map } from 'nanostores';
import { resolveNicknames } from './comment-api.ts';
import { mentionedNames, MENTION_RESOLVE_MAX } from '../shared/mention-text.ts';

/** Nickname → sec_uid of the users @mentioned in comments seen so far; null when no such user. */
export const $mentionLinks = map<Record<string, string | null>>({});

const asked = new Set<string>();

/** Looks up the users that `texts` mention (one call for the names not asked before); unknown names stay plain text. */
export async function resolveMentionLinks(texts: string[]): Promise<void> {
  const names = [...new Set(texts.flatMap(mentionedNames))].filter((n) => !asked.has(n)).slice(0, MENTION_RESOLVE_MAX);
  if (!names.length) return;
  for (const n of names) asked.add(n);
  try {
    const found = await resolveNicknames(names);
    const next = { ...$mentionLinks.get() };
    for (const n of names) next[n] = found.get(n) ?? null;
    $mentionLinks.set(next);
  } catch {
    // Links are a nicety: on failure the names stay plain text and may be asked again later.
    for (const n of names) asked.delete(n);
  }
}

/** Seeds the links the server already resolved for its first page. */
export function seedMentionLinks(links: Record<string, string>): void {
  const fresh = Object.entries(links).filter(([n]) => $mentionLinks.get()[n] === undefined);
  if (!fresh.length) return;
  for (const [n] of fresh) asked.add(n);
  $mentionLinks.set({ ...$mentionLinks.get(), ...Object.fromEntries(fresh) });
}
