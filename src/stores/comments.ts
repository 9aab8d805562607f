/**
 * A video's comments as its comment island shows them: the loaded pages, reply threads opened on demand, the reply
 * target, publishing, deleting and optimistic likes (queued like video likes), with counts announced to the page.
 */
import { map } from 'nanostores';
import { fetchComments, fetchReplies, sendComment, sendCommentLike, sendDelete } from './comment-api.ts';
import {
  COMMENT_COUNT_EVENT,
  type CommentCountDetail,
  type CommentData,
  type CommentPage,
} from '../shared/comment-data.ts';
import { canPublish } from '../shared/comment-text.ts';
import { requireLogin } from './auth.ts';
import { resolveMentionLinks } from './mention-links.ts';
import { enqueueWrite } from './write-queue.ts';

export {
  COMMENT_COUNT_EVENT,
  type CommentCountDetail,
  type CommentData,
  type CommentPage,
  type CommentUser,
} from '../shared/comment-data.ts';

export type CommentsPhase = 'idle' | 'loading' | 'error' | 'done';

/** The replies under one top-level comment. */
export interface ReplyThread {
  /** Replies loaded from the server, oldest first. */
  items: CommentData[];
  cursor: string | number;
  hasMore: boolean;
  loaded: boolean;
  open: boolean;
  loading: boolean;
  /** Replies posted here since, shown after the loaded ones until a page brings them. */
  posted: CommentData[];
}

/** The comment a reply being written answers. */
export interface ReplyTarget {
  cid: string;
  nickname: string;
}

/** One video's comment list. */
export interface CommentsState {
  /** Top-level comments, in the order shown. */
  items: CommentData[];
  /** The video's comment count, replies included. */
  total: number;
  phase: CommentsPhase;
  /** Where the next page starts (the server's cursor). */
  cursor: string | number;
  /** Reply threads by top-level comment id. */
  threads: Record<string, ReplyThread>;
  replyTo: ReplyTarget | null;
}

export const EMPTY_THREAD: ReplyThread = {
  items: [],
  cursor: 0,
  hasMore: true,
  loaded: false,
  open: false,
  loading: false,
  posted: [],
};

/** Comment lists by video id, while a comment island shows them. */
export const $comments = map<Record<string, CommentsState>>({});

/** Per video: a page request in flight, and a number bumped by each reset so answers to older requests are dropped. */
const requests = new Map<string, { busy: boolean; generation: number }>();

/**
 * A page with no comments that says more are to come: the server rendered only the count (the video page leaves its
 * first comments to the browser, to keep its HTML small), and the first page is still to load.
 */
function unloaded(page: CommentPage): boolean {
  return page.items.length === 0 && page.hasMore;
}

/** The state a server-rendered first page stands for (or an empty list about to load). */
export function initialComments(initial?: CommentPage): CommentsState {
  return {
    items: initial?.items ?? [],
    total: initial?.total ?? 0,
    phase: !initial || unloaded(initial) ? 'loading' : initial.hasMore ? 'idle' : 'done',
    cursor: initial?.cursor ?? 0,
    threads: {},
    replyTo: null,
  };
}

/** The replies of `rootId` as shown: the loaded ones, then those posted here that no page has brought yet. */
export function shownReplies(thread: ReplyThread): CommentData[] {
  return [...thread.items, ...thread.posted.filter((p) => !thread.items.some((i) => i.cid === p.cid))];
}

function update(awemeId: string, fn: (s: CommentsState) => CommentsState): void {
  const s = $comments.get()[awemeId];
  if (s) $comments.setKey(awemeId, fn(s));
}

function updateThread(awemeId: string, rootId: string, fn: (th: ReplyThread) => ReplyThread): void {
  update(awemeId, (s) => ({ ...s, threads: { ...s.threads, [rootId]: fn(s.threads[rootId] ?? EMPTY_THREAD) } }));
}

/** Applies `fn` to a comment wherever it is shown (top level or a thread). */
function patchComment(awemeId: string, cid: string, fn: (c: CommentData) => CommentData): void {
  const each = (list: CommentData[]) => list.map((c) => (c.cid === cid ? fn(c) : c));
  update(awemeId, (s) => ({
    ...s,
    items: each(s.items),
    threads: Object.fromEntries(
      Object.entries(s.threads).map(([root, th]) => [root, { ...th, items: each(th.items), posted: each(th.posted) }]),
    ),
  }));
}

function findComment(s: CommentsState, cid: string): CommentData | undefined {
  return (
    s.items.find((c) => c.cid === cid) ??
    Object.values(s.threads)
      .flatMap(shownReplies)
      .find((c) => c.cid === cid)
  );
}

/** Tells the page (counts beside the player, the heading) that a video now has `count` comments. */
export function announceCount(awemeId: string, count: number): void {
  globalThis.dispatchEvent?.(new CustomEvent<CommentCountDetail>(COMMENT_COUNT_EVENT, { detail: { awemeId, count } }));
}

/** Starts showing a video's comments: from the server-rendered first page, or loading it when there is none. */
export function openComments(awemeId: string, initial?: CommentPage): Promise<void> {
  const request = requests.get(awemeId);
  requests.set(awemeId, { busy: false, generation: (request?.generation ?? 0) + 1 });
  $comments.setKey(awemeId, initialComments(initial));
  return initial && !unloaded(initial) ? Promise.resolve() : loadComments(awemeId, true);
}

/** Stops showing a video's comments; answers still on their way are dropped. */
export function closeComments(awemeId: string): void {
  requests.delete(awemeId);
  const { [awemeId]: _gone, ...rest } = $comments.get();
  $comments.set(rest);
}

/** The next page (nothing while one loads), or with `reset` the first page again for the viewer (after a login). */
export async function loadComments(awemeId: string, reset = false): Promise<void> {
  const request = requests.get(awemeId);
  const s = $comments.get()[awemeId];
  if (!request || !s || (request.busy && !reset)) return;
  const generation = reset ? ++request.generation : request.generation;
  const current = () => requests.get(awemeId) === request && request.generation === generation;
  const shown = new Set(s.items.map((c) => c.cid));
  request.busy = true;
  update(awemeId, (x) => ({ ...x, phase: 'loading', replyTo: reset ? null : x.replyTo }));
  try {
    const page = await fetchComments(awemeId, reset ? 0 : s.cursor);
    if (!current()) return;
    void resolveMentionLinks(page.items.map((c) => c.text));
    update(awemeId, (x) => {
      const seen = new Set(x.items.map((c) => c.cid));
      // Comments posted here while the first page was on its way (an Enter the comment island replays as it wakes
      // comes just as it asks for that page): the page may have been read before they were written, or leave them
      // to a later page. They stay first, and the count is the newer of the page's and the publish's, even when the
      // page holds them: its count and its rows need not come from the same moment.
      const postedHere = reset ? x.items.filter((c) => !shown.has(c.cid)) : [];
      const posted = postedHere.filter((c) => !page.items.some((p) => p.cid === c.cid));
      return {
        ...x,
        items: reset ? [...posted, ...page.items] : [...x.items, ...page.items.filter((c) => !seen.has(c.cid))],
        total: postedHere.length ? Math.max(page.total, x.total) : page.total,
        cursor: page.cursor,
        threads: reset ? {} : x.threads,
        phase: page.hasMore && page.items.length > 0 ? 'idle' : 'done',
      };
    });
  } catch {
    if (current()) update(awemeId, (x) => ({ ...x, phase: 'error' }));
  } finally {
    if (current()) request.busy = false;
  }
}

/** The replies button: opens a thread already loaded, otherwise loads its next page of replies (opening it). */
export async function expandReplies(awemeId: string, rootId: string): Promise<void> {
  const th = $comments.get()[awemeId]?.threads[rootId] ?? EMPTY_THREAD;
  if (!th.open && th.loaded) return updateThread(awemeId, rootId, (x) => ({ ...x, open: true }));
  if (th.loading) return;
  updateThread(awemeId, rootId, (x) => ({ ...x, loading: true, open: true }));
  try {
    const page = await fetchReplies(awemeId, rootId, th.loaded ? th.cursor : 0);
    void resolveMentionLinks(page.items.map((c) => c.text));
    updateThread(awemeId, rootId, (x) => {
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
    patchComment(awemeId, rootId, (x) => ({ ...x, replyTotal: page.total }));
  } catch {
    updateThread(awemeId, rootId, (x) => ({ ...x, loading: false }));
  }
}

/** Folds a thread's replies away (they stay loaded). */
export function collapseReplies(awemeId: string, rootId: string): void {
  updateThread(awemeId, rootId, (x) => ({ ...x, open: false }));
}

/** Points the composer at `c` for a reply; anonymous viewers get the login dialog instead. */
export function startReply(awemeId: string, c: CommentData): void {
  if (!requireLogin()) return;
  update(awemeId, (s) => ({ ...s, replyTo: { cid: c.cid, nickname: c.user.nickname } }));
}

/** Back to a top-level comment. */
export function cancelReply(awemeId: string): void {
  update(awemeId, (s) => ({ ...s, replyTo: null }));
}

/**
 * Publishes `text` as a comment, or as a reply to the reply target; shows it (a comment first in the list, a reply at
 * the end of its thread) and announces the new count. Rejects without a session or with text the server would refuse.
 */
export async function publishComment(awemeId: string, text: string): Promise<CommentData> {
  if (!requireLogin()) throw new Error('login needed');
  if (!canPublish(text)) throw new RangeError('comment text out of bounds');
  const target = $comments.get()[awemeId]?.replyTo ?? null;
  const { comment, total } = await sendComment(awemeId, text, target?.cid);
  void resolveMentionLinks([comment.text]);
  announceCount(awemeId, total);
  // A first page answered while this was on its way may already hold the comment.
  update(awemeId, (s) => ({
    ...s,
    total,
    replyTo: null,
    items: comment.rootId === '0' ? [comment, ...s.items.filter((c) => c.cid !== comment.cid)] : s.items,
  }));
  if (comment.rootId !== '0') {
    updateThread(awemeId, comment.rootId, (x) => ({ ...x, open: true, posted: [...x.posted, comment] }));
    patchComment(awemeId, comment.rootId, (x) => ({ ...x, replyTotal: x.replyTotal + 1 }));
  }
  return comment;
}

/** Deletes one's own comment (a top-level one takes its thread along) and announces the new count. */
export async function deleteComment(awemeId: string, c: CommentData): Promise<void> {
  const total = await sendDelete(c.cid);
  announceCount(awemeId, total);
  update(awemeId, (s) => ({ ...s, total, replyTo: s.replyTo?.cid === c.cid ? null : s.replyTo }));
  if (c.rootId === '0') {
    update(awemeId, ({ threads: { [c.cid]: _gone, ...threads }, ...s }) => ({
      ...s,
      threads,
      items: s.items.filter((x) => x.cid !== c.cid),
    }));
  } else {
    updateThread(awemeId, c.rootId, (x) => ({
      ...x,
      items: x.items.filter((r) => r.cid !== c.cid),
      posted: x.posted.filter((r) => r.cid !== c.cid),
    }));
    patchComment(awemeId, c.rootId, (x) => ({ ...x, replyTotal: Math.max(0, x.replyTotal - 1) }));
  }
}

/**
 * Likes or unlikes a comment at once, then queues the write behind earlier ones of the same comment (write-queue.ts):
 * the latest answer settles the count, a refused latest write is rolled back. Anonymous viewers get the login dialog.
 */
export function toggleCommentLike(awemeId: string, cid: string): Promise<boolean> {
  if (!requireLogin()) return Promise.resolve(false);
  const shown = $comments.get()[awemeId];
  const c = shown && findComment(shown, cid);
  if (!c) return Promise.resolve(false);
  const liked = !c.liked;
  const before = { liked: c.liked, diggCount: c.diggCount };
  patchComment(awemeId, cid, (x) => ({ ...x, liked, diggCount: Math.max(0, x.diggCount + (liked ? 1 : -1)) }));
  return enqueueWrite(`comment-like:${cid}`, {
    send: () => sendCommentLike(awemeId, cid, liked),
    settle: (r) => patchComment(awemeId, cid, (x) => ({ ...x, liked: r.liked, diggCount: r.diggCount })),
    rollback: () => patchComment(awemeId, cid, (x) => ({ ...x, ...before })),
  });
}
