import { useId, useState, type FormEvent } from 'react';
import { toast } from '../stores/toast.ts';
import { t } from '../i18n/t.ts';
import type { MessageKey } from '../i18n/zh-CN.ts';
import { riCloseLine } from '../shared/icons.ts';
import { MUTE_HASHTAG_MAX, MUTE_KEYWORD_MAX, MUTE_KEYWORDS_MAX } from '../shared/mutes.ts';
import { mute, unmute, type MuteEntry, type MuteTarget } from '../stores/mutes.ts';
import { Icon } from './Icon.tsx';

const FIELD =
  'h-10 min-w-0 flex-1 rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent lt-tablet:h-11';
const ADD = 'btn-accent h-10 shrink-0 px-4 text-sm lt-tablet:h-11 disabled:opacity-50';
const CHIP_REMOVE =
  'focus-ring inline-flex h-7 w-7 items-center justify-center rounded-full text-muted hover:bg-hover hover:text-primary lt-tablet:(h-11 w-11 -my-2 -mr-2)';

const targetOf = (m: MuteEntry): MuteTarget =>
  m.kind === 'author' ? { kind: 'author', secUid: m.user?.secUid ?? '' } : { kind: m.kind, value: m.value };

/** One group's heading: its name, what it does and how many it holds. */
function GroupHead({ id, title, hint, count }: { id: string; title: string; hint: string; count: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <div className="flex flex-col gap-0.5">
        <h3 id={id} className="text-base font-semibold">
          {title}
        </h3>
        <p className="text-xs text-secondary">{hint}</p>
      </div>
      <span className="shrink-0 text-xs tabular-nums text-muted" data-mute-count="">
        {count}
      </span>
    </div>
  );
}

/** A form that adds one keyword or hashtag; the server's refusal (too long, 200 already) shows under it. */
function AddForm({
  kind,
  placeholder,
  max,
  full,
  onAdded,
}: {
  kind: 'keyword' | 'hashtag';
  placeholder: string;
  max: number;
  full: boolean;
  onAdded: (m: MuteEntry) => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      onAdded(await mute({ kind, value }));
      setValue('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="mt-3 flex flex-col gap-1" onSubmit={(e) => void submit(e)} noValidate>
      <div className="flex gap-2">
        <input
          className={FIELD}
          value={value}
          // The server counts characters (code points) and names the cap; this only stops typing far past it.
          maxLength={max * 2}
          placeholder={placeholder}
          aria-label={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? id : undefined}
          onChange={(e) => setValue(e.target.value)}
          disabled={full}
        />
        <button type="submit" className={ADD} disabled={busy || full || !value.trim()}>
          {t('mute.add')}
        </button>
      </div>
      {(error || full) && (
        <p id={id} role="alert" className="text-xs text-accent-text">
          {error ?? t('mute.full', { max: MUTE_KEYWORDS_MAX })}
        </p>
      )}
    </form>
  );
}

/**
 * 屏蔽设置: muted keywords, authors and hashtags, each added and removed with one click. Every change is stored on
 * the server at once (so every device the member uses reads the same) and in the page's mutes store.
 */
export function MuteSettings({ initial }: { initial: MuteEntry[] }) {
  const [items, setItems] = useState(initial);
  const ids = { keyword: useId(), author: useId(), hashtag: useId() };
  const of = (kind: MuteEntry['kind']) => items.filter((m) => m.kind === kind);
  const added = (m: MuteEntry) => setItems((all) => [m, ...all.filter((x) => x.id !== m.id)]);
  const remove = async (m: MuteEntry) => {
    try {
      await unmute(targetOf(m));
      setItems((all) => all.filter((x) => x.id !== m.id));
      toast(t('mute.removed'), { type: 'success' });
    } catch (err) {
      toast((err as Error).message, { type: 'error' });
    }
  };
  const keywords = of('keyword');
  const authors = of('author');
  const hashtags = of('hashtag');

  const chips = (list: MuteEntry[], empty: MessageKey, label: (m: MuteEntry) => string, group: string) =>
    list.length === 0 ? (
      <p className="mt-3 rounded-xl bg-raised p-4 text-sm text-secondary">{t(empty)}</p>
    ) : (
      <ul className="mt-3 flex flex-wrap gap-2" aria-labelledby={group}>
        {list.map((m) => (
          <li key={m.id} className="inline-flex items-center gap-1 rounded-full bg-raised py-1 pl-3 pr-1 text-sm">
            <span className="max-w-[16rem] truncate">{label(m)}</span>
            <button
              type="button"
              className={CHIP_REMOVE}
              aria-label={t('mute.removeNamed', { name: label(m) })}
              onClick={() => void remove(m)}
            >
              <Icon svg={riCloseLine} />
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="mt-2 flex flex-col divide-y divide-line">
      <div className="py-4" data-mute-group="keyword">
        <GroupHead
          id={ids.keyword}
          title={t('mute.keywords')}
          hint={t('mute.keywordsHint', { max: MUTE_KEYWORD_MAX })}
          count={t('mute.keywordsCount', { count: keywords.length, max: MUTE_KEYWORDS_MAX })}
        />
        <AddForm
          kind="keyword"
          placeholder={t('mute.keywordPlaceholder')}
          max={MUTE_KEYWORD_MAX}
          full={keywords.length >= MUTE_KEYWORDS_MAX}
          onAdded={added}
        />
        {chips(keywords, 'mute.keywordsEmpty', (m) => m.value, ids.keyword)}
      </div>
      <div className="py-4" data-mute-group="author">
        <GroupHead
          id={ids.author}
          title={t('mute.authors')}
          hint={t('mute.authorsHint')}
          count={t('mute.authorsCount', { count: authors.length })}
        />
        {authors.length === 0 ? (
          <p className="mt-3 rounded-xl bg-raised p-4 text-sm text-secondary">{t('mute.authorsEmpty')}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line" aria-labelledby={ids.author}>
            {authors.map((m) => (
              <li key={m.id} className="flex items-center gap-3 py-2">
                <img
                  src={m.user?.avatar}
                  alt=""
                  width={36}
                  height={36}
                  loading="lazy"
                  className="h-9 w-9 shrink-0 rounded-full bg-raised object-cover"
                />
                <a
                  href={`/user/${encodeURIComponent(m.user?.secUid ?? '')}`}
                  className="focus-ring min-w-0 flex-1 truncate text-sm hover:text-accent-text"
                >
                  {m.user?.nickname}
                </a>
                <button
                  type="button"
                  className="btn-ghost h-8 shrink-0 border border-line px-3 text-sm lt-tablet:h-11"
                  aria-label={t('mute.removeNamed', { name: m.user?.nickname ?? '' })}
                  onClick={() => void remove(m)}
                >
                  {t('mute.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="py-4" data-mute-group="hashtag">
        <GroupHead
          id={ids.hashtag}
          title={t('mute.hashtags')}
          hint={t('mute.hashtagsHint')}
          count={t('mute.hashtagsCount', { count: hashtags.length })}
        />
        <AddForm
          kind="hashtag"
          placeholder={t('mute.hashtagPlaceholder')}
          max={MUTE_HASHTAG_MAX}
          full={false}
          onAdded={added}
        />
        {chips(hashtags, 'mute.hashtagsEmpty', (m) => `#${m.value}`, ids.hashtag)}
      </div>
    </div>
  );
}
