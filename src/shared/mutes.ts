/**
 * Muting (屏蔽) as both sides read it: the caps the settings form and the service check, and the one matching rule the
 * browser applies to what a page every viewer shares rendered before the member's mutes arrived (the server applies
 * the same rule in SQL, services/mutes.ts): a keyword is a plain substring of a work's text, case folded (Chinese text
 * needs no spaces), an author by id, a hashtag by its exact name.
 */

export const MUTE_KINDS = ['keyword', 'author', 'hashtag'] as const;
export type MuteKind = (typeof MUTE_KINDS)[number];

/** Characters in one keyword at most, and keywords one member may mute. */
export const MUTE_KEYWORD_MAX = 20;
export const MUTE_KEYWORDS_MAX = 200;
/** Characters in a muted hashtag's name, and muted authors and hashtags one member may keep. */
export const MUTE_HASHTAG_MAX = 50;
export const MUTE_OTHERS_MAX = 1000;

/**
 * A keyword or hashtag as stored and compared: NFKC and outer spaces dropped; a keyword in lower case (matched against
 * the lower-cased text), a hashtag without its leading # (matched by its exact name, as hashtags are stored).
 */
export function muteValue(kind: Exclude<MuteKind, 'author'>, raw: string): string {
  const v = raw.normalize('NFKC').trim();
  return kind === 'hashtag' ? v.replace(/^#+/, '').trim() : v.toLowerCase();
}

/** What the rule reads of one work. */
export interface MutableWork {
  /** The author's (or writer's) sec_uid. */
  author?: string | null;
  text?: string;
  hashtags?: readonly string[];
}

/** A member's mutes as the browser holds them. */
export interface MuteSet {
  keywords: readonly string[];
  /** By sec_uid, as pages name people. */
  authors: readonly string[];
  hashtags: readonly string[];
}

export const NO_MUTES: MuteSet = { keywords: [], authors: [], hashtags: [] };

/** Whether `mutes` hides a work (or a comment: its writer as `author`, its words as `text`). */
export function isMuted(mutes: MuteSet, work: MutableWork): boolean {
  if (work.author && mutes.authors.includes(work.author)) return true;
  if (work.text && mutes.keywords.length) {
    const text = work.text.toLowerCase();
    if (mutes.keywords.some((k) => text.includes(k))) return true;
  }
  if (work.hashtags?.length && mutes.hashtags.length) {
    if (mutes.hashtags.some((h) => work.hashtags!.includes(h))) return true;
  }
  return false;
}
