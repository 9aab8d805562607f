import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet } = await import('./api.ts');
const { $mentionLinks, resolveMentionLinks, seedMentionLinks } = await import('./mention-links.ts');

const get = vi.mocked(apiGet);

beforeEach(() => {
  get.mockReset();
  get.mockResolvedValue({ users: [] });
});

describe('mention links', () => {
  it('asks once per name, remembers unknown names as null, and keeps what the server seeded', async () => {
    seedMentionLinks({ 老王: 'S1' });
    get.mockResolvedValueOnce({ users: [{ nickname: '阿兰', sec_uid: 'S8' }] });
    await resolveMentionLinks(['@阿兰 @没这人 @老王', '@阿兰']);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]![0]).toBe('/aweme/v1/web/comment/mention/resolve/');
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
