import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatCount, t } from '../i18n/t.ts';
import { riArrowDownSLine, riArrowUpSLine, riChatSmile2Line, riCloseLine } from '../shared/icons.ts';
import { $auth, openLogin } from '../stores/auth.ts';
import {
  $mentionLinks,
  deleteComment,
  likeComment,
  loadComments,
  loadReplies,
  publishComment,
  seedMentionLinks,
  type CommentData,
  type CommentPage,
} from '../stores/comments.ts';
import { $user } from '../stores/user.ts';
import { CommentsComposer, type ReplyTarget } from './CommentsComposer.tsx';
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

type Phase = 'idle' | 'loading' | 'error' | 'done';

interface Thread {
  /** Replies loaded from the server, oldest first. */
  items: CommentData[];
  cursor: number;
  hasMore: boolean;
  loaded: boolean;
  open: boolean;
  loading: boolean;
  /** Replies posted here since, shown after the loaded ones until a page brings them. */
  posted: CommentData[];
}

const EMPTY_THREAD: Thread = { items: [], cursor: 0, hasMore: true, loaded: false, open: false, loading: false, posted: [] };
const AHEAD = '600px 0px';

const shown = (th: Thread) => [...th.items, ...th.posted.filter((p) => !th.items.some((i) => i.cid === p.cid))];

/** Hydration renders what the server rendered; browser-only state (the saved session) applies after mount. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/**
 * A video's comments: paged by cursor as the list scrolls, replies on demand, posting a
 * comment or a reply, optimistic likes, deleting one's own, 作者 and 作者赞过 marks, counts kept in step.
 */
export function Comments({ awemeId, variant, onClose, initial, mentions, renderedAt, authorSecUid, viewerSecUid = null }: CommentsProps) {
  const mounted = useMounted();
  const user = useStore($user);
  const { routerKey } = useStore($auth);
  const storeLinks = useStore($mentionLinks);
  const links = mentions ? { ...mentions, ...storeLinks } : storeLinks;
  const loggedIn = mounted ? user.token !== null : viewerSecUid !== null;
  const me = mounted ? (user.userInfo?.sec_uid ?? null) : viewerSecUid;

  const [items, setItems] = useState<CommentData[]>(initial?.items ?? []);
  const [total, setTotal] = useState(initial?.total ?? 0);
  const [phase, setPhase] = useState<Phase>(initial ? (initial.hasMore ? 'idle' : 'done') : 'loading');
  const [threads, setThreads] = useState<Record<string, Thread>>({});
  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);
  const [now] = useState(() => renderedAt ?? Date.now());
  const cursor = useRef(initial?.cursor ?? 0);
  const busy = useRef(false);
  const nearEnd = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstKey = useRef(routerKey);

  useEffect(() => {
    if (mentions) seedMentionLinks(mentions);
  }, [mentions]);

  // Bumped by each reset (another video in the feed's panel, a login): answers to older requests are dropped.
  const generation = useRef(0);

  const load = useCallback(
    async (reset = false) => {
      if (busy.current && !reset) return;
      const gen = reset ? ++generation.current : generation.current;
      busy.current = true;
      setPhase('loading');
      if (reset) setReplyTo(null);
      try {
        const page = await loadComments(awemeId, reset ? 0 : cursor.current);
        if (gen !== generation.current) return;
        cursor.current = page.cursor;
        setTotal(page.total);
        setItems((before) => {
          if (reset) return page.items;
          const seen = new Set(before.map((c) => c.cid));
          return [...before, ...page.items.filter((c) => !seen.has(c.cid))];
        });
        if (reset) setThreads({});
        setPhase(page.hasMore && page.items.length > 0 ? 'idle' : 'done');
      } catch {
        if (gen === generation.current) setPhase('error');
      } finally {
        if (gen === generation.current) busy.current = false;
      }
    },
    [awemeId],
  );

  // The panel opens without a server-rendered page; a login or logout reloads the list for the viewer's likes.
  useEffect(() => {
    if (initial) return;
    setItems([]);
    setThreads({});
    void load(true);
  }, [initial, load]);
  useEffect(() => {
    if (routerKey !== firstKey.current) {
      firstKey.current = routerKey;
      void load(true);
    }
  }, [routerKey, load]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current && !busy.current) void load();
      },
      { root: variant === 'panel' ? scroller.current : null, rootMargin: AHEAD },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [variant, load]);

  // Keep loading while the end of the list stays in reach (a short first page on a tall screen).
  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void load();
  }, [phase, load]);

  /** Applies `fn` to a comment wherever it is shown (top level or a thread). */
  const patch = (cid: string, fn: (c: CommentData) => CommentData) => {
    setItems((list) => list.map((c) => (c.cid === cid ? fn(c) : c)));
    setThreads((all) => {
      const next: Record<string, Thread> = {};
      for (const [root, th] of Object.entries(all)) {
        next[root] = {
          ...th,
          items: th.items.map((c) => (c.cid === cid ? fn(c) : c)),
          posted: th.posted.map((c) => (c.cid === cid ? fn(c) : c)),
        };
      }
      return next;
    });
  };

  const setThread = (root: string, fn: (th: Thread) => Thread) => setThreads((all) => ({ ...all, [root]: fn(all[root] ?? EMPTY_THREAD) }));

  const needLogin = () => {
    if (user.token) return false;
    openLogin();
    return true;
  };

  const like = async (c: CommentData) => {
    if (needLogin()) return;
    const liked = !c.liked;
    patch(c.cid, (x) => ({ ...x, liked, diggCount: Math.max(0, x.diggCount + (liked ? 1 : -1)) }));
    try {
      const r = await likeComment(awemeId, c.cid, liked);
      patch(c.cid, (x) => ({ ...x, liked: r.liked, diggCount: r.diggCount }));
    } catch {
      patch(c.cid, (x) => ({ ...x, liked: c.liked, diggCount: c.diggCount }));
    }
  };

  const moreReplies = async (root: CommentData) => {
    const th = threads[root.cid] ?? EMPTY_THREAD;
    if (th.loading) return;
    setThread(root.cid, (x) => ({ ...x, loading: true, open: true }));
    try {
      const page = await loadReplies(awemeId, root.cid, th.loaded ? th.cursor : 0);
      setThread(root.cid, (x) => {
        const seen = new Set(x.items.map((c) => c.cid));
        return {
          ...x,
          items: [...x.items, ...page.items.filter((c) => !seen.has(c.cid))],
          cursor: page.cursor,
          hasMore: page.hasMore,
          loaded: true,
          loading: false,
        };
      });
      // The thread's count may have moved since the list was read.
      patch(root.cid, (x) => ({ ...x, replyTotal: page.total }));
    } catch {
      setThread(root.cid, (x) => ({ ...x, loading: false }));
    }
  };

  const publish = async (text: string) => {
    if (needLogin()) throw new Error('login needed');
    const target = replyTo;
    const { comment, total: next } = await publishComment(awemeId, text, target?.cid);
    setTotal(next);
    setReplyTo(null);
    if (comment.rootId === '0') {
      setItems((list) => [comment, ...list]);
      scroller.current?.scrollTo({ top: 0 });
    } else {
      setThread(comment.rootId, (x) => ({ ...x, open: true, posted: [...x.posted, comment] }));
      patch(comment.rootId, (x) => ({ ...x, replyTotal: x.replyTotal + 1 }));
    }
  };

  const remove = async (c: CommentData) => {
    const next = await deleteComment(awemeId, c.cid);
    setTotal(next);
    if (replyTo?.cid === c.cid) setReplyTo(null);
    if (c.rootId === '0') {
      setItems((list) => list.filter((x) => x.cid !== c.cid));
      setThreads(({ [c.cid]: _gone, ...rest }) => rest);
    } else {
      setThread(c.rootId, (x) => ({ ...x, items: x.items.filter((r) => r.cid !== c.cid), posted: x.posted.filter((r) => r.cid !== c.cid) }));
      patch(c.rootId, (x) => ({ ...x, replyTotal: Math.max(0, x.replyTotal - 1) }));
    }
    heading.current?.focus();
  };

  const startReply = (c: CommentData) => {
    if (needLogin()) return;
    setReplyTo({ cid: c.cid, nickname: c.user.nickname });
  };

  const canDelete = (c: CommentData) => me !== null && (c.user.secUid === me || authorSecUid === me);

  const itemProps = { links, now, onLike: like, onReply: startReply, onDelete: remove };

  const replies = (root: CommentData) => {
    const th = threads[root.cid] ?? EMPTY_THREAD;
    const list = shown(th);
    const hidden = root.replyTotal - list.length;
    return (
      <div className="mt-1">
        {th.open && list.length > 0 && (
          <ul aria-label={t('comment.list')}>
            {list.map((r) => (
              <li key={r.cid}>
                <CommentsItem comment={r} canDelete={canDelete(r)} {...itemProps} />
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-center gap-4 text-xs">
          {(!th.open && root.replyTotal > 0) || (th.open && (th.loaded ? th.hasMore : hidden > 0)) ? (
            <button
              type="button"
              aria-busy={th.loading || undefined}
              onClick={() => (!th.open && th.loaded ? setThread(root.cid, (x) => ({ ...x, open: true })) : void moreReplies(root))}
              className="focus-ring flex items-center gap-1 rounded text-secondary hover:text-primary"
            >
              <span className="inline-block h-px w-5 bg-line" aria-hidden="true"></span>
              {th.open && th.loaded ? t('comment.moreReplies') : t('video.replies', { count: formatCount(th.open ? hidden : root.replyTotal) })}
              <Icon svg={riArrowDownSLine} />
            </button>
          ) : null}
          {th.open && list.length > 0 && (
            <button
              type="button"
              onClick={() => setThread(root.cid, (x) => ({ ...x, open: false }))}
              className="focus-ring flex items-center gap-1 rounded text-muted hover:text-primary"
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
    <CommentsComposer loggedIn={loggedIn} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSubmit={publish} />
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
      <header className={panel ? 'flex items-center justify-between border-b border-line px-4 py-3' : 'mb-3 flex items-center justify-between'}>
        <h2 id={titleId} ref={heading} tabIndex={-1} className="section-title outline-none">
          {t('video.commentsTitle')}
          <span className="text-secondary" data-comment-total="">
            （{formatCount(total)}）
          </span>
        </h2>
        {panel && onClose && (
          <button type="button" onClick={onClose} aria-label={t('comment.close')} className="btn-ghost h-8 w-8 px-0">
            <Icon svg={riCloseLine} className="text-lg" />
          </button>
        )}
      </header>
      {!panel && <div className="mb-2">{composer}</div>}
      <div ref={scroller} className={panel ? 'min-h-0 flex-1 overflow-y-auto px-4' : ''}>
        {items.length > 0 && (
          <ul aria-label={t('comment.list')} aria-busy={phase === 'loading' || undefined} className="divide-y divide-line">
            {items.map((c) => (
              <li key={c.cid}>
                <CommentsItem comment={c} canDelete={canDelete(c)} {...itemProps}>
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
        <div ref={sentinel} data-comments-end={phase === 'idle' ? 'more' : phase} className="flex min-h-12 flex-col items-center justify-center gap-2 py-4 text-xs text-muted">
          <p role="status" aria-live="polite" className={phase === 'done' && items.length > 0 ? undefined : phase === 'error' ? undefined : 'sr-only'}>
            {phase === 'loading' ? t('common.loading') : phase === 'error' ? t('profile.list.failed') : phase === 'done' && items.length > 0 ? t('comment.end') : ''}
          </p>
          {(phase === 'idle' || phase === 'error') && (
            <button type="button" className="btn-ghost h-7 border border-line text-xs" onClick={() => void load(items.length === 0)}>
              {phase === 'error' ? t('profile.list.retry') : t('common.loadMore')}
            </button>
          )}
        </div>
      </div>
      {panel && <div className="border-t border-line p-3">{composer}</div>}
    </section>
  );
}
