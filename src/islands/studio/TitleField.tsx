import { useStore } from '@nanostores/react';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { t } from '../../i18n/t.ts';
import { hashtagNames } from '../../shared/hashtag-text.ts';
import { insertMark, insertMention, mentionAt, titleLength } from '../../stores/studio-check.ts';
import {
  $mentionCandidates,
  loadMentionCandidates,
  suggestMentions,
  type MentionCandidate,
} from '../../stores/studio-mentions.ts';
import { FIELD_LABEL, TAP } from './classes.ts';

interface Props {
  value: string;
  max: number;
  onChange: (value: string) => void;
  /** Problem text shown under the field (from the form). */
  invalid?: boolean;
}

/**
 * The title: #hashtags and @mentions in the text, a counter to the limit, and while an @name is being typed, the
 * people I follow to pick from (arrow keys and Enter, or a click).
 */
export function TitleField({ value, max, onChange, invalid = false }: Props) {
  const box = useRef<HTMLTextAreaElement>(null);
  const caretAfter = useRef<number | null>(null);
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const candidates = useStore($mentionCandidates);
  const fieldId = useId();
  const listId = useId();
  const counterId = useId();
  const length = titleLength(value);
  const options: MentionCandidate[] = typing && candidates ? suggestMentions(candidates, typing.query) : [];
  const open = typing !== null && candidates !== null;
  const tags = hashtagNames(value);

  // Put the caret back where an insertion ended, after React has written the new value.
  useLayoutEffect(() => {
    if (caretAfter.current === null || !box.current) return;
    box.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  });

  const follow = (text: string, caret: number) => {
    const found = mentionAt(text, caret);
    setTyping(found);
    setActive(0);
    if (found) void loadMentionCandidates();
  };

  const apply = (next: { text: string; caret: number }) => {
    caretAfter.current = next.caret;
    onChange(next.text);
    follow(next.text, next.caret);
    box.current?.focus();
  };

  const pick = (c: MentionCandidate) => {
    const el = box.current;
    if (!typing || !el) return;
    apply(insertMention(value, typing.start, el.selectionStart, c.nickname));
    setTyping(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open || e.nativeEvent.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      setTyping(null);
    } else if (options.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (options.length > 0 && (e.key === 'Enter' || e.key === 'Tab')) {
      e.preventDefault();
      pick(options[active] ?? options[0]!);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId} className={FIELD_LABEL}>
        {t('studio.form.title')}
      </label>
      <div className="relative">
        <div
          className={`rounded-xl border bg-raised focus-within:border-accent ${invalid || length > max ? 'border-accent' : 'border-line'}`}
        >
          <textarea
            ref={box}
            id={fieldId}
            value={value}
            rows={4}
            placeholder={t('studio.form.titlePlaceholder')}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && options.length > 0 ? optionId(active) : undefined}
            aria-describedby={counterId}
            aria-invalid={invalid || length > max || undefined}
            onChange={(e) => {
              onChange(e.target.value);
              follow(e.target.value, e.target.selectionStart);
            }}
            onSelect={(e) => follow(e.currentTarget.value, e.currentTarget.selectionStart)}
            onBlur={() => setTyping(null)}
            onKeyDown={onKeyDown}
            className="block max-h-60 min-h-28 w-full resize-y bg-transparent px-4 py-3 text-sm leading-6 text-primary outline-none placeholder:text-muted"
          />
          <div className="flex items-center gap-1 border-t border-line px-2 py-1">
            <button
              type="button"
              title={t('studio.form.hashtagLabel')}
              className={`btn-ghost ${TAP} px-3 font-medium`}
              onClick={() => apply(insertMark(value, box.current?.selectionStart ?? value.length, '#'))}
            >
              {t('studio.form.hashtag')}
            </button>
            <button
              type="button"
              title={t('studio.form.mentionLabel')}
              className={`btn-ghost ${TAP} px-3 font-medium`}
              onClick={() => apply(insertMark(value, box.current?.selectionStart ?? value.length, '@'))}
            >
              {t('studio.form.mention')}
            </button>
            <span
              id={counterId}
              className={`ml-auto pr-2 text-xs tabular-nums ${length > max ? 'font-medium text-accent-text' : 'text-secondary'}`}
            >
              {t('studio.form.counter', { count: length, max })}
            </span>
          </div>
        </div>
        <div
          hidden={!open}
          className="absolute left-0 top-full z-10 mt-1 w-full max-w-80 rounded-xl border border-line bg-surface p-1 shadow-xl"
        >
          <ul id={listId} role="listbox" aria-label={t('studio.form.mentionList')} className="max-h-72 overflow-y-auto">
            {options.map((c, i) => (
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the textarea drives keyboard selection (aria-activedescendant); clicks are the pointer path
              <li
                key={c.secUid}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(c)}
                className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 py-1.5 text-sm ${i === active ? 'bg-hover text-primary' : 'text-secondary'}`}
              >
                {c.avatar ? (
                  <img
                    src={c.avatar}
                    alt=""
                    width={28}
                    height={28}
                    className="h-7 w-7 shrink-0 rounded-full object-cover"
                  />
                ) : (
                  <span className="h-7 w-7 shrink-0 rounded-full bg-raised" />
                )}
                <span className="truncate">{c.nickname}</span>
              </li>
            ))}
          </ul>
          {options.length === 0 && <p className="px-3 py-2 text-sm text-secondary">{t('studio.form.mentionEmpty')}</p>}
        </div>
      </div>
      {tags.length > 0 && (
        <ul aria-label={t('studio.form.hashtags')} className="flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li key={tag} className="rounded-full bg-raised px-3 py-1 text-xs text-secondary">
              #{tag}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
