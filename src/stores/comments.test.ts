import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../client/api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet, apiPost } = await import('../client/api.ts');
const comments = await import('./comments.ts');
const { $mentionLinks, COMMENT_COUNT_EVENT, publishComment, resolveMentionLinks, seedMentionLinks } = comments;

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

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  get.mockResolvedValue({ users: [] });
});

describe('publishComment', () => {
  it('maps the answer, announces the new count on window, and refuses text the server would', async () => {
    post.mockResolvedValue({ comment: apiComment({ reply_id: '4', reply_to_username: '阿花', reply_to_sec_uid: 'S8' }), comment_count: 12 });
    // Node has no window: a plain EventTarget stands in for it.
    const win = new EventTarget();
    vi.stubGlobal('dispatchEvent', win.dispatchEvent.bind(win));
    const heard: unknown[] = [];
    win.addEventListener(COMMENT_COUNT_EVENT, (e) => heard.push((e as CustomEvent).detail));
    const { comment, total } = await publishComment('5', '你好 @阿花', '4');
    vi.unstubAllGlobals();
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/comment/publish', { aweme_id: '5', text: '你好 @阿花', reply_id: '4' });
    expect(total).toBe(12);
    expect(heard).toEqual([{ awemeId: '5', count: 12 }]);
    expect(comment).toEqual({
      cid: '9',
      rootId: '4',
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
    await expect(publishComment('5', '评'.repeat(501))).rejects.toThrow(RangeError);
    expect(post).toHaveBeenCalledTimes(1);
  });
});

describe('mention links', () => {
  it('asks once per name, remembers unknown names as null, and keeps what the server seeded', async () => {
    seedMentionLinks({ 老王: 'S1' });
    get.mockResolvedValueOnce({ users: [{ nickname: '阿兰', sec_uid: 'S8' }] });
    await resolveMentionLinks(['@阿兰 @没这人 @老王', '@阿兰']);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]![1]).toEqual({ nicknames: '阿兰 没这人' });
    expect($mentionLinks.get()).toMatchObject({ 老王: 'S1', 阿兰: 'S8', 没这人: null });
    await resolveMentionLinks(['@阿兰 又来了']);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failure', async () => {
    get.mockRejectedValueOnce(new Error('offline'));
    await resolveMentionLinks(['@小红']);
    expect($mentionLinks.get().小红).toBeUndefined();
    get.mockResolvedValueOnce({ users: [{ nickname: '小红', sec_uid: 'S9' }] });
    await resolveMentionLinks(['@小红']);
    expect($mentionLinks.get().小红).toBe('S9');
  });
});
