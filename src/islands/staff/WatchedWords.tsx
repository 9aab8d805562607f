/** 关注词: the list moderators keep; new comments, titles, bios and messages containing one are flagged into the queue. */
import { useState } from 'react';
import { apiPost } from '../../stores/api.ts';
import { t } from '../../i18n/t.ts';
import { WATCHED_WORD_MAX } from '../../shared/staff.ts';
import { ReauthDialog } from './ReauthDialog.tsx';
import { useStaffCall } from './useStaffCall.ts';

interface Word {
  id: number;
  word: string;
}

export function WatchedWords({ initial }: { initial: Word[] }) {
  const [words, setWords] = useState(initial);
  const [draft, setDraft] = useState('');
  const call = useStaffCall();
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void call.run(
            () => apiPost<{ data: Word }>('/admin/words/add', { word: draft }, { quiet: true }),
            (r) => {
              setWords((w) => [...w, r.data].sort((a, b) => a.word.localeCompare(b.word)));
              setDraft('');
            },
          );
        }}
      >
        <label className="sr-only" htmlFor="watched-word">
          {t('staff.words.placeholder')}
        </label>
        <input
          id="watched-word"
          className="focus-ring h-11 min-w-0 flex-1 rounded-lg border border-line bg-raised px-3 text-primary"
          placeholder={t('staff.words.placeholder')}
          maxLength={WATCHED_WORD_MAX}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="btn-accent h-11 px-6" disabled={call.busy || !draft.trim()}>
          {t('staff.words.add')}
        </button>
      </form>
      {call.error && (
        <p role="alert" className="text-sm text-accent-text">
          {call.error}
        </p>
      )}
      {words.length === 0 ? (
        <p className="py-8 text-center text-secondary">{t('staff.words.empty')}</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label={t('staff.words.title')}>
          {words.map((w) => (
            <li key={w.id} className="flex items-center gap-1 rounded-full bg-raised pl-3 text-sm">
              <span>{w.word}</span>
              <button
                type="button"
                className="btn-ghost h-11 rounded-full"
                aria-label={`${t('staff.words.remove')} ${w.word}`}
                disabled={call.busy}
                onClick={() =>
                  void call.run(
                    () => apiPost('/admin/words/remove', { id: w.id }, { quiet: true }),
                    () => setWords((all) => all.filter((x) => x.id !== w.id)),
                  )
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {call.reauth && (
        <ReauthDialog
          onClose={call.clearReauth}
          onDone={() => {
            const resume = call.reauth;
            call.clearReauth();
            resume?.();
          }}
        />
      )}
    </div>
  );
}
