/**
 * The member's mutes (屏蔽) in the browser: what the page's marks named (null for visitors and until they arrive),
 * and the actions of 屏蔽设置 and 不看TA的作品, which store each change server-side (so every device reads the same)
 * and update the store at once. Pages hide what they rendered for everyone by the same rule (client/mutes.ts).
 */
import { atom } from 'nanostores';
import type { MuteKind, MuteSet } from '../shared/mutes.ts';
import { muteValue } from '../shared/mutes.ts';

export const $mutes = atom<MuteSet | null>(null);

/** One entry of 屏蔽设置's lists (GET /api/user/mutes). */
export interface MuteEntry {
  id: number;
  kind: MuteKind;
  value: string;
  user: { uid: string; secUid: string; nickname: string; avatar: string } | null;
  createTime: number;
}

export interface MuteList {
  items: MuteEntry[];
  limits: { keywords: number; keywordLength: number; hashtagLength: number };
}

/** What a mute names: a keyword or hashtag by its text, an author by sec_uid. */
export type MuteTarget = { kind: 'keyword' | 'hashtag'; value: string } | { kind: 'author'; secUid: string };

function form(target: MuteTarget): Record<string, string> {
  return target.kind === 'author'
    ? { kind: 'author', sec_user_id: target.secUid }
    : { kind: target.kind, value: target.value };
}

/** The store with `target` in (on) or out. */
function apply(target: MuteTarget, on: boolean): void {
  const now = $mutes.get() ?? { keywords: [], authors: [], hashtags: [] };
  const key = target.kind === 'author' ? 'authors' : target.kind === 'keyword' ? 'keywords' : 'hashtags';
  const value = target.kind === 'author' ? target.secUid : muteValue(target.kind, target.value);
  const rest = now[key].filter((v) => v !== value);
  $mutes.set({ ...now, [key]: on ? [...rest, value] : rest });
}

/** The member's mutes with who each author is, newest first. */
export async function loadMuteList(): Promise<MuteList> {
  const { apiGet } = await import('./api.ts');
  return (await apiGet<{ data: MuteList }>('/user/mutes')).data;
}

/** Mutes `target`; rejects with the server's message (too long, 200 already…) and leaves the store as it was. */
export async function mute(target: MuteTarget): Promise<MuteEntry> {
  const { apiPost } = await import('./api.ts');
  const entry = (await apiPost<{ data: MuteEntry }>('/user/mutes/add', form(target), { quiet: true })).data;
  apply(target, true);
  return entry;
}

/** Takes `target` back (撤销, 移除). */
export async function unmute(target: MuteTarget): Promise<void> {
  const { apiPost } = await import('./api.ts');
  await apiPost('/user/mutes/remove', form(target), { quiet: true });
  apply(target, false);
}

/**
 * 不看TA的作品 from a video's 更多 menu: mutes the author (their works leave the page and the feed at once) and says so
 * in a toast whose 撤销 takes it back with one click.
 */
export async function muteAuthorWithUndo(author: { secUid: string }): Promise<void> {
  const [{ toast }, { t }] = await Promise.all([import('./toast.ts'), import('../i18n/t.ts')]);
  const target: MuteTarget = { kind: 'author', secUid: author.secUid };
  try {
    await mute(target);
  } catch (err) {
    toast((err as Error).message, { type: 'error' });
    return;
  }
  toast(t('mute.authorDone'), {
    type: 'success',
    action: {
      label: t('mute.undo'),
      run: () =>
        void unmute(target).then(
          () => toast(t('mute.undone')),
          (err: Error) => toast(err.message, { type: 'error' }),
        ),
    },
  });
}
