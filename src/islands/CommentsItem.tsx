import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatCount, formatRelative, t } from '../i18n/t.ts';
import { riHeart3Fill, riHeart3Line } from '../shared/icons.ts';
import { splitMentions } from '../shared/mention-text.ts';
import type { CommentData } from '../stores/comments.ts';
import { isMuted } from '../shared/mutes.ts';
import { $mutes } from '../stores/mutes.ts';
import { Icon } from './Icon.tsx';

interface Props {
  comment: CommentData;
  /** Nickname → sec_uid of mentioned users known so far. */
  links: Record<string, string | null>;
  now: number;
  canDelete: boolean;
  onLike: (c: CommentData) => void;
  onReply: (c: CommentData) => void;
  onDelete: (c: CommentData) => Promise<void>;
  /** 举报 (others' comments): opens the report dialog, which offers 同时拉黑 the writer. */
  onReport?: (c: CommentData) => void;
  /** The replies area under a top-level comment. */
  children?: ReactNode;
}

/** Comment text as React text nodes; @mentions of known users become profile links. Never parsed as HTML. */
export function CommentText({ text, links }: { text: string; links: Record<string, string | null> }) {
  return (
    <>
      {splitMentions(text).map((part, i) => {
        if (!('mention' in part)) return part.text;
        const secUid = links[part.mention];
        return secUid ? (
          <a
            key={i}
            href={`/user/${encodeURIComponent(secUid)}`}
            className="focus-ring text-accent-text hover:underline"
          >
            @{part.mention}
          </a>
        ) : (
          <span key={i} className="text-secondary">
            @{part.mention}
          </span>
        );
      })}
    </>
  );
}

/** One comment or reply: author, 作者 tag, text, time, like, reply and (own) delete with a confirmation. */
export function CommentsItem({
  comment: c,
  links,
  now,
  canDelete,
  onLike,
  onReply,
  onDelete,
  onReport,
  children,
}: Props) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const reply = c.rootId !== '0';
  const size = reply ? 'h-7 w-7' : 'h-9 w-9';
  const profile = `/user/${encodeURIComponent(c.user.secUid)}`;
  const mutes = useStore($mutes);
  // A comment by a muted author or holding a muted keyword is folded (已屏蔽) until the viewer opens that one.
  const [opened, setOpened] = useState(false);
  const folded = !opened && !!mutes && isMuted(mutes, { author: c.user.secUid, text: c.text });

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    deleteRef.current?.focus();
  };

  if (folded)
    return (
      <article className="py-2" data-cid={c.cid} data-folded="" aria-label={t('mute.folded')}>
        <p className="flex items-center gap-2 text-xs text-muted">
          <span>{t('mute.folded')}</span>
          <button
            type="button"
            className="focus-ring tap-target rounded text-secondary hover:text-primary"
            onClick={() => setOpened(true)}
          >
            {t('mute.show')}
          </button>
        </p>
        {children}
      </article>
    );

  return (
    <article className="flex gap-3 py-3" data-cid={c.cid} aria-label={c.user.nickname}>
      <a href={profile} className="focus-ring shrink-0 self-start rounded-full" tabIndex={-1} aria-hidden="true">
        <img
          src={c.user.avatar}
          alt=""
          width={36}
          height={36}
          loading="lazy"
          decoding="async"
          className={`${size} rounded-full bg-raised object-cover`}
        />
      </a>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
          <a href={profile} className="focus-ring tap-target hover:text-primary">
            {c.user.nickname}
          </a>
          {c.isAuthor && (
            <span className="rounded-sm bg-accent-fill px-1 text-[10px] leading-4 text-white">
              {t('video.authorTag')}
            </span>
          )}
        </p>
        <p className="mt-1 whitespace-pre-wrap break-words text-sm leading-6 text-primary">
          {c.replyTo && (
            <span className="text-muted">
              {t('comment.replyTo')}{' '}
              <a
                href={`/user/${encodeURIComponent(c.replyTo.secUid)}`}
                className="focus-ring text-secondary hover:text-accent-text"
              >
                @{c.replyTo.nickname}
              </a>
              ：
            </span>
          )}
          <CommentText text={c.text} links={links} />
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
          <time dateTime={new Date(c.createdAt).toISOString()}>
            {formatRelative(new Date(c.createdAt), new Date(Math.max(now, c.createdAt)))}
          </time>
          <button
            type="button"
            aria-pressed={c.liked}
            onClick={() => onLike(c)}
            className={`focus-ring tap-target flex items-center gap-1 rounded hover:text-primary ${c.liked ? 'text-accent-text' : ''}`}
          >
            <Icon svg={c.liked ? riHeart3Fill : riHeart3Line} />
            <span className="sr-only">{t('comment.like')}</span>
            <span>{formatCount(c.diggCount)}</span>
          </button>
          <button type="button" onClick={() => onReply(c)} className="focus-ring tap-target rounded hover:text-primary">
            {t('comment.reply')}
          </button>
          {c.authorLiked && <span className="text-accent-text">{t('comment.authorLiked')}</span>}
          {canDelete && !confirming && (
            <button
              ref={deleteRef}
              type="button"
              onClick={() => setConfirming(true)}
              className="focus-ring tap-target rounded hover:text-primary"
            >
              {t('comment.delete')}
            </button>
          )}
          {onReport && !confirming && (
            <button
              type="button"
              onClick={() => onReport(c)}
              className="focus-ring tap-target rounded hover:text-primary"
              aria-label={`${t('comment.report')} ${c.user.nickname}`}
            >
              {t('comment.report')}
            </button>
          )}
        </div>
        {confirming && (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape inside the confirmation cancels it; its buttons are the interactive parts
          <div
            role="alertdialog"
            aria-label={t('comment.deleteConfirm')}
            className="mt-2 flex flex-wrap items-center gap-2 rounded-lg bg-raised px-3 py-2 text-xs"
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                cancel();
              }
            }}
          >
            <span className="text-secondary">{t('comment.deleteConfirm')}</span>
            <button
              ref={confirmRef}
              type="button"
              disabled={deleting}
              className="btn-accent tap-target h-7 px-3 text-xs"
              onClick={async () => {
                setDeleting(true);
                try {
                  await onDelete(c);
                } catch {
                  setDeleting(false);
                  cancel();
                }
              }}
            >
              {t('comment.deleteYes')}
            </button>
            <button type="button" className="btn-ghost tap-target h-7 px-3 text-xs" onClick={cancel}>
              {t('comment.deleteNo')}
            </button>
          </div>
        )}
        {children}
      </div>
    </article>
  );
}

/** Grey rows while comments load. */
export function CommentsSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <ul aria-hidden="true" className="flex flex-col">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="flex animate-pulse gap-3 py-3">
          <div className="h-9 w-9 shrink-0 rounded-full bg-raised" />
          <div className="flex flex-1 flex-col gap-2">
            <div className="h-3 w-24 rounded bg-raised" />
            <div className="h-4 w-11/12 rounded bg-raised" />
            <div className="h-3 w-32 rounded bg-raised" />
          </div>
        </li>
      ))}
    </ul>
  );
}
