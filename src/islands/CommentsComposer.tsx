import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { t } from '../i18n/t.ts';
import { openLogin } from '../stores/auth.ts';
import { canPublish, COMMENT_MAX, commentLength } from '../shared/comment-text.ts';
import { EMOJI } from '../shared/emoji.ts';
import { riAtLine, riEmotionLaughLine } from '../shared/icons.ts';
import type { ReplyTarget } from '../stores/comments.ts';
import { mentionOptions, type MentionOption } from '../stores/mention-picker.ts';
import { insertMark, insertMention, mentionAt } from '../stores/studio-check.ts';
import { Icon } from './Icon.tsx';

/** A pause in typing before the @ picker asks who is meant. */
const PICKER_DELAY_MS = 150;

const TOOL_BTN =
  'focus-ring tap-target flex h-7 w-7 items-center justify-center rounded text-secondary hover:(bg-hover text-primary)';

interface Props {
  /**
   * 'unknown' on a page every viewer shares, until the island has mounted: both the login prompt and the box are drawn,
   * and the saved login shows one of them before first paint (data-member), so a member may type before hydration.
   */
  loggedIn: boolean | 'unknown';
  replyTo: ReplyTarget | null;
  onCancelReply: () => void;
  /** Publishes the text; resolves when done (the draft is cleared), rejects to keep it. */
  onSubmit: (text: string) => Promise<void>;
}

/**
 * The comment box: up to 500 characters with a live counter, Enter sends (Shift+Enter for a new line). '@' and a few
 * characters open a picker of whom to mention (people I follow first, then others: arrows and Enter, or a click), and
 * the emoji panel inserts at the caret.
 */
export function CommentsComposer({ loggedIn, replyTo, onCancelReply, onSubmit }: Props) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [options, setOptions] = useState<MentionOption[]>([]);
  const [active, setActive] = useState(0);
  const [emoji, setEmoji] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const caretAfter = useRef<number | null>(null);
  const counterId = useId();
  const listId = useId();
  const length = commentLength(text);
  const over = length > COMMENT_MAX;
  const ready = canPublish(text) && !sending;

  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  // Text typed into the server-rendered box before the island woke up is kept.
  useEffect(() => {
    if (box.current?.value) setText(box.current.value);
  }, []);
  // The caret goes back where an insertion ended, once React has written the new text.
  useLayoutEffect(() => {
    if (caretAfter.current === null || !box.current) return;
    box.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  });
  // Who a typed '@name' may mean, asked after a short pause; a newer query wins over a slower older one.
  useEffect(() => {
    if (!typing) return setOptions([]);
    let current = true;
    const timer = setTimeout(() => {
      void mentionOptions(typing.query)
        .then((found) => {
          if (!current) return;
          setOptions(found);
          setActive(0);
        })
        .catch(() => current && setOptions([]));
    }, PICKER_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [typing]);

  const both = loggedIn === 'unknown';
  const prompt = (
    <button type="button" onClick={openLogin} className="btn-ghost h-10 w-full border border-line">
      {t('comment.login')}
    </button>
  );

  const follow = (value: string, caret: number) => {
    const found = mentionAt(value, caret);
    setTyping((was) => (found && was && found.start === was.start && found.query === was.query ? was : found));
  };
  const apply = (next: { text: string; caret: number }) => {
    caretAfter.current = next.caret;
    setText(next.text);
    follow(next.text, next.caret);
    box.current?.focus();
  };
  const pick = (o: MentionOption) => {
    if (!typing || !box.current) return;
    apply(insertMention(text, typing.start, box.current.selectionStart, o.nickname));
    setTyping(null);
  };
  const insertEmoji = (e: string) => {
    const el = box.current;
    const at = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setEmoji(false);
    apply({ text: text.slice(0, at) + e + text.slice(end), caret: at + e.length });
  };
  const open = typing !== null && options.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;
  /** Keys of the open picker: arrows move, Enter or Tab picks, Esc closes; true when the key was the picker's. */
  const pickerKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp')
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    else if (e.key === 'Enter' || e.key === 'Tab') pick(options[active] ?? options[0]!);
    else if (e.key === 'Escape') setTyping(null);
    else return false;
    e.preventDefault();
    e.stopPropagation();
    return true;
  };

  const submit = async (value = text) => {
    if (!canPublish(value) || sending) return;
    setSending(true);
    try {
      await onSubmit(value);
      setText('');
      setTyping(null);
    } catch {
      // The API client already told the user; the draft stays for another try.
    } finally {
      setSending(false);
    }
  };

  const form = (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {replyTo && (
        <p className="flex items-center justify-between gap-2 text-xs text-secondary">
          <span className="truncate">{t('comment.replying', { nickname: replyTo.nickname })}</span>
          <button
            type="button"
            onClick={onCancelReply}
            className="focus-ring tap-target shrink-0 rounded text-muted hover:text-primary"
          >
            {t('comment.cancelReply')}
          </button>
        </p>
      )}
      <div className="relative flex items-end gap-2 rounded-xl bg-raised px-3 py-2 focus-within:ring-2 focus-within:ring-accent">
        {open && (
          <ul
            id={listId}
            role="listbox"
            aria-label={t('comment.mention.list')}
            className="absolute inset-x-0 bottom-full z-30 mb-1 max-h-72 overflow-y-auto rounded-xl border border-line bg-raised py-1 shadow-xl"
          >
            {options.map((o, i) => (
              // The textarea keeps focus (aria-activedescendant); a press picks without taking it away.
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the textarea's (combobox)
              <li
                key={o.secUid}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(o)}
                className={`flex h-11 cursor-pointer items-center gap-2 px-3 text-sm ${i === active ? 'bg-hover' : ''}`}
              >
                {o.avatar ? (
                  <img src={o.avatar} alt="" width="28" height="28" className="h-7 w-7 rounded-full object-cover" />
                ) : (
                  <span className="h-7 w-7 rounded-full bg-hover" />
                )}
                <span className="min-w-0 flex-1 truncate text-primary">{o.nickname}</span>
                {o.followed && <span className="shrink-0 text-xs text-muted">{t('comment.mention.followed')}</span>}
              </li>
            ))}
          </ul>
        )}
        {emoji && (
          <div
            role="group"
            aria-label={t('dm.emoji')}
            className="absolute bottom-full left-0 z-30 mb-1 grid grid-cols-8 gap-0.5 rounded-xl border border-line bg-raised p-1.5 shadow-xl"
          >
            {EMOJI.map((e) => (
              <button
                key={e}
                type="button"
                className="focus-ring h-9 w-9 rounded text-lg hover:bg-hover"
                onClick={() => insertEmoji(e)}
              >
                {e}
              </button>
            ))}
          </div>
        )}
        <textarea
          ref={box}
          value={text}
          rows={2}
          // A textbox with a list of suggestions (the picker), as the studio's title field; the caret stays here.
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(active) : undefined}
          // Enter sends; client:interact also keeps an Enter pressed here before the island woke, for it to send.
          enterKeyHint="send"
          aria-label={
            replyTo ? t('comment.replyPlaceholder', { nickname: replyTo.nickname }) : t('comment.placeholder')
          }
          placeholder={
            replyTo ? t('comment.replyPlaceholder', { nickname: replyTo.nickname }) : t('comment.placeholder')
          }
          aria-invalid={over || undefined}
          aria-describedby={counterId}
          onChange={(e) => {
            setText(e.target.value);
            follow(e.target.value, e.target.selectionStart);
          }}
          onSelect={(e) => follow(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={() => setTyping(null)}
          onKeyDown={(e) => {
            if (pickerKey(e)) return;
            // Enter while an IME is composing picks a candidate; it must not send.
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              // What the box shows: an Enter pressed while the island loaded comes as it wakes, before `text` has
              // taken what was typed until then.
              void submit(e.currentTarget.value);
            } else if (e.key === 'Escape' && replyTo) {
              e.stopPropagation();
              onCancelReply();
            }
          }}
          className="max-h-40 min-h-10 flex-1 resize-none bg-transparent text-sm leading-5 text-primary outline-none placeholder:text-muted"
        />
        <div className="flex shrink-0 flex-col items-end gap-1">
          <span className="flex gap-0.5">
            <button
              type="button"
              className={TOOL_BTN}
              aria-label={t('comment.mention.add')}
              onClick={() => apply(insertMark(text, box.current?.selectionStart ?? text.length, '@'))}
            >
              <Icon svg={riAtLine} className="text-base" />
            </button>
            <button
              type="button"
              className={TOOL_BTN}
              aria-label={t('dm.emoji')}
              aria-expanded={emoji}
              onClick={() => setEmoji(!emoji)}
            >
              <Icon svg={riEmotionLaughLine} className="text-base" />
            </button>
          </span>
          <span
            id={counterId}
            className={`text-xs tabular-nums ${over ? 'font-medium text-accent-text' : 'text-muted'}`}
          >
            {t('comment.counter', { count: length, max: COMMENT_MAX })}
          </span>
          <button
            type="submit"
            disabled={!ready}
            aria-busy={sending || undefined}
            className="btn-accent tap-target h-7 px-3 text-xs"
          >
            {t('comment.send')}
          </button>
        </div>
      </div>
      {over && (
        <p role="alert" className="text-xs text-accent-text">
          {t('comment.tooLong', { max: COMMENT_MAX })}
        </p>
      )}
    </form>
  );
  // Each in its own place, so that the one that stays keeps its node (what was typed, a click waiting to be replayed)
  // when the other goes.
  return (
    <>
      {(both || !loggedIn) && <div data-visitor-only={both ? '' : undefined}>{prompt}</div>}
      {(both || loggedIn) && <div data-member-only={both ? '' : undefined}>{form}</div>}
    </>
  );
}
