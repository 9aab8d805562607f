import { useEffect, useId, useRef, useState } from 'react';
import { t } from '../i18n/t.ts';
import { openLogin } from '../stores/auth.ts';
import { canPublish, COMMENT_MAX, commentLength } from '../shared/comment-text.ts';
import type { ReplyTarget } from '../stores/comments.ts';

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

/** The comment box: up to 500 characters with a live counter, Enter sends (Shift+Enter for a new line). */
export function CommentsComposer({ loggedIn, replyTo, onCancelReply, onSubmit }: Props) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
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

  const both = loggedIn === 'unknown';
  const prompt = (
    <button type="button" onClick={openLogin} className="btn-ghost h-10 w-full border border-line">
      {t('comment.login')}
    </button>
  );

  const submit = async (value = text) => {
    if (!canPublish(value) || sending) return;
    setSending(true);
    try {
      await onSubmit(value);
      setText('');
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
      <div className="flex items-end gap-2 rounded-xl bg-raised px-3 py-2 focus-within:ring-2 focus-within:ring-accent">
        <textarea
          ref={box}
          value={text}
          rows={2}
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
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
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
