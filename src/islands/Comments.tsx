import { useStore } from '@nanostores/react';
import { $marks } from '../stores/marks.ts';
import { useEffect, useRef, useState } from 'react';
import { formatCount, t } from '../i18n/t.ts';
import { riArrowDownSLine, riArrowUpSLine, riChatSmile2Line, riCloseLine } from '../shared/icons.ts';
import { $auth, $sessionEnded, requireLogin } from '../stores/auth.ts';
import {
  $comments,
  cancelReply,
  closeComments,
  collapseReplies,
  deleteComment,
  EMPTY_THREAD,
  expandReplies,
  initialComments,
  loadComments,
  openComments,
  publishComment,
  shownReplies,
  startReply,
  toggleCommentLike,
  type CommentData,
  type CommentPage,
} from '../stores/comments.ts';
import { $mentionLinks, seedMentionLinks } from '../stores/mention-links.ts';
import { $user } from '../stores/user.ts';
import { CommentsComposer } from './CommentsComposer.tsx';
import { CommentsItem, CommentsSkeleton } from './CommentsItem.tsx';
import { Icon } from './Icon.tsx';

export interface CommentsProps {
  awemeId: string;
  /** panel: the feed's side panel (fills its box, scrolls inside); column: the /video/{id} column (scrolls with the page). */
  variant: 'panel' | 'column';
  /** The panel's close button (and Esc inside it). */
  onClose?: () => void;
  /** The first page, rendered by the server. */
  initial?: CommentPage;
  /** Mentioned nicknames the server already resolved to sec_uids. */
  mentions?: Record<string, string>;
  /** The server's clock when it rendered `initial` (ms), so relative times hydrate unchanged. */
  renderedAt?: number;
  /** The video's author, who may delete any comment under it. */
  authorSecUid?: string;
  /** The viewer the server rendered for (its session cookie), until the browser's saved session is read. */
  viewerSecUid?: string | null;
}

const AHEAD = '600px 0px';

/** Hydration renders what the server rendered; browser-only state (the saved session) applies after mount. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/**
 * A video's comments: paged by cursor as the list scrolls, replies on demand, posting a comment or a reply, optimistic
 * likes, deleting one's own, 作者 and 作者赞过 marks, counts kept in step. The list lives in the comment store.
 */
export function Comments({
  awemeId,
  variant,
  onClose,
  initial,
  mentions,
  renderedAt,
  authorSecUid,
  viewerSecUid = null,
}: CommentsProps) {
  const mounted = useMounted();
  const user = useStore($user);
  const { routerKey } = useStore($auth);
  const storeLinks = useStore($mentionLinks);
  const links = mentions ? { ...mentions, ...storeLinks } : storeLinks;
  const ended = useStore($sessionEnded);
  // The page's viewer (its session cookie) counts until that session ends, with or without a token saved here.
  // On a page every viewer shares, the marks that arrived after first paint name the viewer (a cookie-only session too).
  const marked = useStore($marks)?.viewer.secUid ?? null;
  const pageViewer = mounted && ended ? null : (viewerSecUid ?? marked);
  // Before mounting, a page that names no viewer may be anyone's: the composer draws both of its states.
  const loggedIn = mounted ? user.token !== null || pageViewer !== null : viewerSecUid !== null || 'unknown';
  const me = mounted ? (user.userInfo?.sec_uid ?? pageViewer) : viewerSecUid;

  const stored = useStore($comments)[awemeId];
  // Until the store takes the list (after hydration), the server-rendered page is what shows.
  const [fallback] = useState(() => initialComments(initial));
  const { items, total, phase, threads, replyTo } = stored ?? fallback;
  const [now] = useState(() => renderedAt ?? Date.now());
  const nearEnd = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // A server-rendered first page dates from key 0: a session that ended before hydration reloads it too.
  const firstKey = useRef(initial ? 0 : routerKey);

  useEffect(() => {
    if (mentions) seedMentionLinks(mentions);
  }, [mentions]);

  // The panel opens without a server-rendered page: the store loads the first one.
  useEffect(() => {
    void openComments(awemeId, initial);
    return () => closeComments(awemeId);
  }, [awemeId, initial]);

  // A login or logout reloads the list for the viewer's likes.
  useEffect(() => {
    if (routerKey !== firstKey.current) {
      firstKey.current = routerKey;
      void loadComments(awemeId, true);
    }
  }, [routerKey, awemeId]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current) void loadComments(awemeId);
      },
      { root: variant === 'panel' ? scroller.current : null, rootMargin: AHEAD },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [variant, awemeId]);

  // Keep loading while the end of the list stays in reach (a short first page on a tall screen).
  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void loadComments(awemeId);
  }, [phase, awemeId]);

  const publish = async (text: string) => {
    const comment = await publishComment(awemeId, text);
    if (comment.rootId === '0') scroller.current?.scrollTo({ top: 0 });
  };

  const remove = async (c: CommentData) => {
    await deleteComment(awemeId, c);
    heading.current?.focus();
  };

  const canDelete = (c: CommentData) => me !== null && (c.user.secUid === me || authorSecUid === me);

  const itemProps = {
    links,
    now,
    onLike: (c: CommentData) => void toggleCommentLike(awemeId, c.cid),
    onReply: (c: CommentData) => startReply(awemeId, c),
    onDelete: remove,
  };
  // Others' comments may be reported; 同时拉黑 reloads the list, which then leaves the writer's comments out.
  const reportOf = (c: CommentData) =>
    c.user.secUid === me
      ? undefined
      : () => {
          if (!requireLogin()) return;
          void import('./report.ts').then(({ report }) =>
            report({
              target: 'comment',
              id: c.cid,
              person: { secUid: c.user.secUid, nickname: c.user.nickname },
              onDone: (blocked) => blocked && void loadComments(awemeId, true),
            }),
          );
        };

  const replies = (root: CommentData) => {
    const th = threads[root.cid] ?? EMPTY_THREAD;
    const list = shownReplies(th);
    const hidden = root.replyTotal - list.length;
    return (
      <div className="mt-1">
        {th.open && list.length > 0 && (
          <ul aria-label={t('comment.list')}>
            {list.map((r) => (
              <li key={r.cid}>
                <CommentsItem comment={r} canDelete={canDelete(r)} onReport={reportOf(r)} {...itemProps} />
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-center gap-4 text-xs">
          {(!th.open && root.replyTotal > 0) || (th.open && (th.loaded ? th.hasMore : hidden > 0)) ? (
            <button
              type="button"
              aria-busy={th.loading || undefined}
              onClick={() => void expandReplies(awemeId, root.cid)}
              className="focus-ring tap-target flex items-center gap-1 rounded text-secondary hover:text-primary"
            >
              <span className="inline-block h-px w-5 bg-line" aria-hidden="true"></span>
              {th.open && th.loaded
                ? t('comment.moreReplies')
                : t('video.replies', { count: formatCount(th.open ? hidden : root.replyTotal) })}
              <Icon svg={riArrowDownSLine} />
            </button>
          ) : null}
          {th.open && list.length > 0 && (
            <button
              type="button"
              onClick={() => collapseReplies(awemeId, root.cid)}
              className="focus-ring tap-target flex items-center gap-1 rounded text-muted hover:text-primary"
            >
              {t('comment.collapse')}
              <Icon svg={riArrowUpSLine} />
            </button>
          )}
        </div>
      </div>
    );
  };

  const composer = (
    <CommentsComposer
      loggedIn={loggedIn}
      replyTo={replyTo}
      onCancelReply={() => cancelReply(awemeId)}
      onSubmit={publish}
    />
  );
  const panel = variant === 'panel';
  const titleId = `comments-title-${awemeId}`;

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from anywhere inside the side panel closes it; only bubbled keys arrive here
    <section
      aria-labelledby={titleId}
      data-comments={awemeId}
      className={panel ? 'flex h-full min-h-0 flex-col bg-surface text-primary' : 'flex flex-col'}
      onKeyDown={
        panel && onClose
          ? (e) => {
              if (e.key === 'Escape') onClose();
            }
          : undefined
      }
    >
      <header
        className={
          panel
            ? 'flex items-center justify-between border-b border-line px-4 py-3'
            : 'mb-3 flex items-center justify-between'
        }
      >
        <h2 id={titleId} ref={heading} tabIndex={-1} className="section-title outline-none">
          {t('video.commentsTitle')}
          <span className="text-secondary" data-comment-total="">
            （{formatCount(total)}）
          </span>
        </h2>
        {panel && onClose && (
          <button
            type="button"
            onClick={onClose}
            aria-label={t('comment.close')}
            className="btn-ghost tap-target h-8 w-8 px-0"
          >
            <Icon svg={riCloseLine} className="text-lg" />
          </button>
        )}
      </header>
      {!panel && <div className="mb-2">{composer}</div>}
      <div ref={scroller} className={panel ? 'min-h-0 flex-1 overflow-y-auto px-4' : ''}>
        {items.length > 0 && (
          <ul
            aria-label={t('comment.list')}
            aria-busy={phase === 'loading' || undefined}
            className="divide-y divide-line"
          >
            {items.map((c) => (
              <li key={c.cid}>
                <CommentsItem comment={c} canDelete={canDelete(c)} onReport={reportOf(c)} {...itemProps}>
                  {replies(c)}
                </CommentsItem>
              </li>
            ))}
          </ul>
        )}
        {phase === 'loading' && <CommentsSkeleton rows={items.length ? 2 : 5} />}
        {phase === 'done' && items.length === 0 && (
          <div className="flex flex-col items-center gap-2 py-12 text-muted">
            <Icon svg={riChatSmile2Line} className="text-4xl" />
            <p>{t('video.noComments')}</p>
          </div>
        )}
        <div
          ref={sentinel}
          data-comments-end={phase === 'idle' ? 'more' : phase}
          className="flex min-h-12 flex-col items-center justify-center gap-2 py-4 text-xs text-muted"
        >
          <p
            role="status"
            aria-live="polite"
            className={phase === 'done' && items.length > 0 ? undefined : phase === 'error' ? undefined : 'sr-only'}
          >
            {phase === 'loading'
              ? t('common.loading')
              : phase === 'error'
                ? t('profile.list.failed')
                : phase === 'done' && items.length > 0
                  ? t('comment.end')
                  : ''}
          </p>
          {(phase === 'idle' || phase === 'error') && (
            <button
              type="button"
              className="btn-ghost tap-target h-7 border border-line text-xs"
              onClick={() => void loadComments(awemeId, items.length === 0)}
            >
              {phase === 'error' ? t('profile.list.retry') : t('common.loadMore')}
            </button>
          )}
        </div>
      </div>
      {panel && <div className="border-t border-line p-3">{composer}</div>}
    </section>
  );
}
