import { beforeEach, describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet, apiPost } = await import('./api.ts');
const c = await import('./comments.ts');
const { $loginOpen } = await import('./auth.ts');

const get = vi.mocked(apiGet);
const post = vi.mocked(apiPost);

const apiComment = (over: Record<string, unknown> = {}) => ({
  cid: '9',
  aweme_id: '5',
  reply_id: '0',
  text: '你好 @阿花',
  create_time: 1_700_000_000,
  digg_count: 2,
  reply_comment_total: 1,
  user_digged: 1 as const,
  is_author_digged: true,
  label_type: 0 as const,
  user: { uid: '3', sec_uid: 'S3', nickname: '小明', avatar_thumb: { url_list: ['/media/a.webp'] } },
  reply_to_username: null,
  reply_to_sec_uid: null,
  status: 1,
  ...over,
});

/** A comment as the store holds it. */
const data = (
  cid: string,
  over: Partial<import('./comments.ts').CommentData> = {},
): import('./comments.ts').CommentData => ({
  cid,
  rootId: '0',
  text: `评论${cid}`,
  createdAt: 1_700_000_000_000,
  diggCount: 3,
  replyTotal: 0,
  liked: false,
  authorLiked: false,
  isAuthor: false,
  user: { secUid: `S${cid}`, nickname: `用户${cid}`, avatar: '' },
  replyTo: null,
  ...over,
});

const list = (cids: string[], more: { cursor: number; hasMore: boolean; total: number }, reply = '0') => ({
  comments: cids.map((cid) => apiComment({ cid, reply_id: reply, text: `评论${cid}` })),
  cursor: more.cursor,
  has_more: more.hasMore ? 1 : 0,
  total: more.total,
});

/** A promise the test settles by hand. */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const state = (awemeId = '5') => c.$comments.get()[awemeId]!;
const login = () => local.setItem('sy.user', JSON.stringify({ token: 't0k', userInfo: null }));
const flush = () => new Promise((r) => setTimeout(r, 0));
const first = { items: [data('1', { replyTotal: 2 }), data('2')], cursor: 2, hasMore: true, total: 9 };

beforeEach(() => {
  for (const id of Object.keys(c.$comments.get())) c.closeComments(id);
  local.clear();
  $loginOpen.set(false);
  get.mockReset();
  post.mockReset();
  // Mention look-ups find nobody unless a test says otherwise.
  get.mockResolvedValue({ users: [] });
});

describe('the list', () => {
  it('starts from the server-rendered page and continues it by cursor without repeats', async () => {
    await c.openComments('5', first);
    expect(state()).toMatchObject({ items: first.items, total: 9, phase: 'idle', cursor: 2 });
    get.mockResolvedValueOnce(list(['2', '3'], { cursor: 4, hasMore: false, total: 10 }));
    await c.loadComments('5');
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/comment/list/', { aweme_id: '5', cursor: 2, count: 20 });
    expect(state().items.map((x) => x.cid)).toEqual(['1', '2', '3']);
    expect(state()).toMatchObject({ total: 10, phase: 'done', cursor: 4 });
  });

  it('loads the first page itself when there is none, one request at a time', async () => {
    const page = later<unknown>();
    get.mockReturnValueOnce(page.promise);
    const opened = c.openComments('5');
    expect(state()).toMatchObject({ items: [], phase: 'loading' });
    await c.loadComments('5');
    expect(get).toHaveBeenCalledTimes(1);
    page.resolve(list(['1'], { cursor: 1, hasMore: true, total: 1 }));
    await opened;
    expect(state()).toMatchObject({ phase: 'idle', cursor: 1 });
    expect(state().items.map((x) => x.cid)).toEqual(['1']);
  });

  it('a server page of only the count keeps the count while the first page loads', async () => {
    const page = later<unknown>();
    get.mockReturnValueOnce(page.promise);
    const opened = c.openComments('5', { items: [], cursor: 0, hasMore: true, total: 9 });
    expect(state()).toMatchObject({ items: [], total: 9, phase: 'loading' });
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/comment/list/', { aweme_id: '5', cursor: 0, count: 20 });
    page.resolve(list(['1', '2'], { cursor: 2, hasMore: true, total: 9 }));
    await opened;
    expect(state()).toMatchObject({ total: 9, phase: 'idle', cursor: 2 });
    expect(state().items.map((x) => x.cid)).toEqual(['1', '2']);
  });

  it('a server page with no comments at all is done at once', async () => {
    await c.openComments('5', { items: [], cursor: 0, hasMore: false, total: 0 });
    expect(state()).toMatchObject({ items: [], total: 0, phase: 'done' });
    expect(get).not.toHaveBeenCalled();
  });

  it('a reset (a login) drops the answer to an older request, the reply target and the threads', async () => {
    await c.openComments('5', first);
    login();
    c.startReply('5', first.items[0]!);
    const old = later<unknown>();
    get.mockReturnValueOnce(old.promise).mockResolvedValueOnce(list(['7'], { cursor: 1, hasMore: false, total: 1 }));
    const next = c.loadComments('5');
    await c.loadComments('5', true);
    old.resolve(list(['3'], { cursor: 3, hasMore: true, total: 9 }));
    await next;
    expect(state().items.map((x) => x.cid)).toEqual(['7']);
    expect(state()).toMatchObject({ phase: 'done', replyTo: null, threads: {} });
  });

  it('a failed page shows the error; a closed list ignores answers still on their way', async () => {
    await c.openComments('5', first);
    get.mockRejectedValueOnce(new Error('offline'));
    await c.loadComments('5');
    expect(state().phase).toBe('error');
    const late = later<unknown>();
    get.mockReturnValueOnce(late.promise);
    const loading = c.loadComments('5');
    c.closeComments('5');
    late.resolve(list(['3'], { cursor: 3, hasMore: true, total: 9 }));
    await loading;
    expect(c.$comments.get()['5']).toBeUndefined();
  });
});

describe('reply threads', () => {
  it('load on demand, fold away and open again without asking, then page on', async () => {
    await c.openComments('5', first);
    get.mockResolvedValueOnce(list(['11'], { cursor: 1, hasMore: true, total: 3 }, '1'));
    await c.expandReplies('5', '1');
    expect(get).toHaveBeenLastCalledWith('/aweme/v1/web/comment/list/reply/', {
      item_id: '5',
      comment_id: '1',
      cursor: 0,
      count: 10,
    });
    expect(state().threads['1']).toMatchObject({ open: true, loaded: true, loading: false, hasMore: true, cursor: 1 });
    // The thread's count follows the server's.
    expect(state().items[0]!.replyTotal).toBe(3);

    c.collapseReplies('5', '1');
    expect(state().threads['1']!.open).toBe(false);
    await c.expandReplies('5', '1');
    expect(state().threads['1']!.open).toBe(true);
    expect(get).toHaveBeenCalledTimes(1);

    get.mockResolvedValueOnce(list(['11', '12'], { cursor: 3, hasMore: false, total: 3 }, '1'));
    await c.expandReplies('5', '1');
    expect(get).toHaveBeenLastCalledWith('/aweme/v1/web/comment/list/reply/', {
      item_id: '5',
      comment_id: '1',
      cursor: 1,
      count: 10,
    });
    expect(c.shownReplies(state().threads['1']!).map((x) => x.cid)).toEqual(['11', '12']);
  });

  it('a failed page of replies leaves the thread ready to ask again', async () => {
    await c.openComments('5', first);
    get.mockRejectedValueOnce(new Error('offline'));
    await c.expandReplies('5', '1');
    expect(state().threads['1']).toMatchObject({ loading: false, loaded: false });
  });
});

describe('publishing and deleting', () => {
  it('a reply goes to the target, shows at the end of its thread and announces the new count', async () => {
    await c.openComments('5', first);
    login();
    c.startReply('5', first.items[0]!);
    expect(state().replyTo).toEqual({ cid: '1', nickname: '用户1' });
    post.mockResolvedValue({
      comment: apiComment({ cid: '20', reply_id: '1', reply_to_username: '阿花', reply_to_sec_uid: 'S8' }),
      comment_count: 12,
    });
    // Node has no window: a plain EventTarget stands in for it.
    const win = new EventTarget();
    vi.stubGlobal('dispatchEvent', win.dispatchEvent.bind(win));
    const heard: unknown[] = [];
    win.addEventListener(c.COMMENT_COUNT_EVENT, (e) => heard.push((e as CustomEvent).detail));
    const comment = await c.publishComment('5', '你好 @阿花');
    vi.unstubAllGlobals();
    expect(post).toHaveBeenCalledWith(
      '/aweme/v1/web/comment/publish',
      {
        aweme_id: '5',
        text: '你好 @阿花',
        reply_id: '1',
      },
      { idempotent: true },
    );
    expect(heard).toEqual([{ awemeId: '5', count: 12 }]);
    expect(comment).toEqual({
      cid: '20',
      rootId: '1',
      text: '你好 @阿花',
      createdAt: 1_700_000_000_000,
      diggCount: 2,
      replyTotal: 1,
      liked: true,
      authorLiked: true,
      isAuthor: false,
      user: { secUid: 'S3', nickname: '小明', avatar: '/media/a.webp' },
      replyTo: { secUid: 'S8', nickname: '阿花' },
    });
    expect(state()).toMatchObject({ total: 12, replyTo: null });
    expect(state().threads['1']).toMatchObject({ open: true, posted: [comment] });
    expect(state().items[0]!.replyTotal).toBe(3);
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/comment/mention/resolve/', { nicknames: '阿花' }, { quiet: true });
  });

  it('a comment goes first in the list; text the server would refuse is not sent, nor is anything without a session', async () => {
    await c.openComments('5', first);
    await expect(c.publishComment('5', '评论')).rejects.toThrow('login needed');
    expect($loginOpen.get()).toBe(true);
    login();
    await expect(c.publishComment('5', '评'.repeat(501))).rejects.toThrow(RangeError);
    expect(post).not.toHaveBeenCalled();
    post.mockResolvedValue({ comment: apiComment({ cid: '30' }), comment_count: 10 });
    await c.publishComment('5', '评论');
    expect(post).toHaveBeenCalledWith(
      '/aweme/v1/web/comment/publish',
      {
        aweme_id: '5',
        text: '评论',
        reply_id: undefined,
      },
      { idempotent: true },
    );
    expect(state().items.map((x) => x.cid)).toEqual(['30', '1', '2']);
  });

  it('a comment posted while the first page loads stays first when a page read before it comes, and shows once when the page has it', async () => {
    login();
    const page = later<unknown>();
    get.mockReturnValueOnce(page.promise);
    const opened = c.openComments('5', { items: [], cursor: 0, hasMore: true, total: 9 });
    post.mockResolvedValueOnce({ comment: apiComment({ cid: '30' }), comment_count: 10 });
    await c.publishComment('5', '评论');
    page.resolve(list(['1', '2'], { cursor: 2, hasMore: true, total: 9 }));
    await opened;
    expect(state().items.map((x) => x.cid)).toEqual(['30', '1', '2']);
    expect(state()).toMatchObject({ total: 10, phase: 'idle', cursor: 2 });

    // Read after the comment was written, the page answers before the publish does.
    const again = later<unknown>();
    get.mockReturnValueOnce(again.promise);
    const reopened = c.openComments('5', { items: [], cursor: 0, hasMore: true, total: 10 });
    const sent = later<unknown>();
    post.mockReturnValueOnce(sent.promise);
    const publishing = c.publishComment('5', '评论');
    again.resolve(list(['1', '31', '2'], { cursor: 3, hasMore: true, total: 11 }));
    await reopened;
    sent.resolve({ comment: apiComment({ cid: '31' }), comment_count: 11 });
    await publishing;
    expect(state().items.map((x) => x.cid)).toEqual(['31', '1', '2']);
    expect(state().total).toBe(11);
  });

  it('a page holding the comment just posted, with a count read before it, does not take the count back', async () => {
    login();
    const page = later<unknown>();
    get.mockReturnValueOnce(page.promise);
    const opened = c.openComments('5', { items: [], cursor: 0, hasMore: true, total: 14 });
    post.mockResolvedValueOnce({ comment: apiComment({ cid: '40' }), comment_count: 15 });
    await c.publishComment('5', '评论');
    page.resolve(list(['40', '1'], { cursor: 2, hasMore: true, total: 14 }));
    await opened;
    expect(state().items.map((x) => x.cid)).toEqual(['40', '1']);
    expect(state().total).toBe(15);
  });

  it('deleting a comment takes its thread along; deleting a reply counts its thread down', async () => {
    await c.openComments('5', first);
    login();
    get.mockResolvedValueOnce(list(['11', '12'], { cursor: 2, hasMore: false, total: 2 }, '1'));
    await c.expandReplies('5', '1');
    const reply = state().threads['1']!.items[0]!;
    c.startReply('5', reply);
    post.mockResolvedValueOnce({ comment_count: 8 });
    await c.deleteComment('5', reply);
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/comment/delete', { cid: '11' });
    expect(state()).toMatchObject({ total: 8, replyTo: null });
    expect(c.shownReplies(state().threads['1']!).map((x) => x.cid)).toEqual(['12']);
    expect(state().items[0]!.replyTotal).toBe(1);

    post.mockResolvedValueOnce({ comment_count: 6 });
    await c.deleteComment('5', state().items[0]!);
    expect(state().items.map((x) => x.cid)).toEqual(['2']);
    expect(state().threads['1']).toBeUndefined();
    expect(state().total).toBe(6);
  });
});

describe('comment likes', () => {
  it('rapid like, unlike, like: shown at once, sent one after another in order, ending in the last state', async () => {
    await c.openComments('5', first);
    login();
    const answers = [later<unknown>(), later<unknown>(), later<unknown>()];
    for (const a of answers) post.mockReturnValueOnce(a.promise);
    const done = [c.toggleCommentLike('5', '1'), c.toggleCommentLike('5', '1'), c.toggleCommentLike('5', '1')];
    expect(state().items[0]).toMatchObject({ liked: true, diggCount: 4 });
    await flush();
    expect(post).toHaveBeenCalledTimes(1);
    answers[0]!.resolve({ user_digged: 1, digg_count: 4 });
    await flush();
    expect(post).toHaveBeenCalledTimes(2);
    answers[1]!.resolve({ user_digged: 0, digg_count: 3 });
    await flush();
    // An overtaken answer does not flicker the button.
    expect(state().items[0]).toMatchObject({ liked: true, diggCount: 4 });
    answers[2]!.resolve({ user_digged: 1, digg_count: 7 });
    expect(await Promise.all(done)).toEqual([true, true, true]);
    expect(post.mock.calls.map((call) => call[1])).toEqual([
      { cid: '1', aweme_id: '5', digg_type: 1 },
      { cid: '1', aweme_id: '5', digg_type: 0 },
      { cid: '1', aweme_id: '5', digg_type: 1 },
    ]);
    expect(state().items[0]).toMatchObject({ liked: true, diggCount: 7 });
  });

  it('a refused like is rolled back wherever the comment shows', async () => {
    await c.openComments('5', first);
    login();
    get.mockResolvedValueOnce(list(['11'], { cursor: 1, hasMore: false, total: 1 }, '1'));
    await c.expandReplies('5', '1');
    post.mockRejectedValueOnce(new Error('500'));
    const done = c.toggleCommentLike('5', '11');
    expect(state().threads['1']!.items[0]).toMatchObject({ liked: false, diggCount: 1 });
    expect(await done).toBe(false);
    expect(state().threads['1']!.items[0]).toMatchObject({ liked: true, diggCount: 2 });
  });

  it('an anonymous like opens the login dialog and changes nothing', async () => {
    await c.openComments('5', first);
    expect(await c.toggleCommentLike('5', '1')).toBe(false);
    expect($loginOpen.get()).toBe(true);
    expect(post).not.toHaveBeenCalled();
    expect(state().items[0]).toMatchObject({ liked: false, diggCount: 3 });
  });
});
