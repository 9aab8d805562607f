/**
 * Watched words (as PeerTube's auto-tags): a list moderators keep; a new comment, work title, bio or message that
 * contains one is flagged into the queue as a report without a reporter, naming the word.
 */
import { asc, eq } from 'drizzle-orm';
import { WATCHED_WORD_MAX, type ModerationTarget } from '../../shared/staff.ts';
import { db } from '../db/client.ts';
import { reports, watchedWords } from '../db/schema.ts';
import { logLine } from '../log.ts';
import { invalid, notFound } from '../errors.ts';
import { audit } from './audit.ts';

/** The list is read again after this long (a change made through another app server shows within it). */
export const WATCHED_TTL_MS = 5_000;

let kept: { words: string[]; until: number } | undefined;

/** The watched words, lower-cased. */
async function words(): Promise<string[]> {
  if (kept && kept.until > Date.now()) return kept.words;
  const rows = await db().select({ word: watchedWords.word }).from(watchedWords);
  kept = { words: rows.map((r) => r.word), until: Date.now() + WATCHED_TTL_MS };
  return kept.words;
}

/** The first watched word `text` contains (case-insensitive), or undefined. */
export async function watchedWordIn(text: string): Promise<string | undefined> {
  const lower = text.toLowerCase();
  return (await words()).find((w) => lower.includes(w));
}

/**
 * Flags a new comment, title, bio or message that contains a watched word. Never fails the write it follows: a
 * failure is logged and the text goes unflagged.
 */
export async function flagWatched(targetType: ModerationTarget, targetId: number, text: string): Promise<boolean> {
  try {
    const word = await watchedWordIn(text);
    if (!word) return false;
    await db()
      .insert(reports)
      .values({ reporterId: null, targetType, targetId, reason: 'watched_word', source: 'watched_word', detail: word });
    return true;
  } catch (error) {
    logLine('warn', 'watched words: could not flag', { error });
    return false;
  }
}

export interface WatchedWord {
  id: number;
  word: string;
  createdAt: Date;
}

/** Every watched word, alphabetically. */
export async function listWatchedWords(): Promise<WatchedWord[]> {
  return db()
    .select({ id: watchedWords.id, word: watchedWords.word, createdAt: watchedWords.createdAt })
    .from(watchedWords)
    .orderBy(asc(watchedWords.word));
}

/** Adds a word (trimmed, lower-cased). */
export async function addWatchedWord(actorId: number, raw: string): Promise<WatchedWord> {
  const word = raw.trim().toLowerCase();
  if (word === '') throw invalid('staff.error.wordEmpty');
  if ([...word].length > WATCHED_WORD_MAX) throw invalid('staff.error.wordTooLong', { max: WATCHED_WORD_MAX });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(word)) throw invalid('error.badText');
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(watchedWords)
      .values({ word, createdBy: actorId })
      .onConflictDoNothing()
      .returning({ id: watchedWords.id, word: watchedWords.word, createdAt: watchedWords.createdAt });
    if (!row) throw invalid('staff.error.wordExists');
    await audit(tx, { actorId, action: 'word.add', targetType: 'watched_word', targetId: row.id, after: { word } });
    kept = undefined;
    return row;
  });
}

/** Removes a word. */
export async function removeWatchedWord(actorId: number, id: number): Promise<void> {
  await db().transaction(async (tx) => {
    const [row] = await tx.delete(watchedWords).where(eq(watchedWords.id, id)).returning({ word: watchedWords.word });
    if (!row) throw notFound('error.notFound');
    await audit(tx, {
      actorId,
      action: 'word.remove',
      targetType: 'watched_word',
      targetId: id,
      before: { word: row.word },
    });
    kept = undefined;
  });
}
