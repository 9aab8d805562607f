import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api.ts', () => ({ apiGet: vi.fn() }));

const { apiGet } = await import('./api.ts');
const { $mentionCandidates, FOLLOWING_PAGES, loadMentionCandidates, suggestMentions } =
  await import('./studio-mentions.ts');
const get = vi.mocked(apiGet);

const person = (n: number, nickname = `用户${n}`) => ({
  sec_uid: `S${n}`,
  nickname,
  avatar_thumb: { url_list: [`/a${n}.webp`] },
});

beforeEach(() => {
  get.mockReset();
  $mentionCandidates.set(null);
});

describe('@ candidates', () => {
  it('reads the people I follow page by page, at most FOLLOWING_PAGES pages, once', async () => {
    get.mockImplementation(async (_path, query) => {
      const offset = Number((query as { offset: number }).offset);
      return { followings: [person(offset), person(offset + 1)], offset: offset + 2, has_more: 1 };
    });
    await Promise.all([loadMentionCandidates(), loadMentionCandidates()]);
    expect(get).toHaveBeenCalledTimes(FOLLOWING_PAGES);
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/user/following/list/', { offset: 2, count: 50 }, { quiet: true });
    expect($mentionCandidates.get()).toHaveLength(FOLLOWING_PAGES * 2);
    expect($mentionCandidates.get()![0]).toEqual({ secUid: 'S0', nickname: '用户0', avatar: '/a0.webp' });
    await loadMentionCandidates();
    expect(get).toHaveBeenCalledTimes(FOLLOWING_PAGES);
  });

  it('stops at the end of the list and tries again after a failure', async () => {
    get.mockRejectedValueOnce(new Error('网络错误'));
    await loadMentionCandidates();
    expect($mentionCandidates.get()).toBeNull();
    get.mockResolvedValueOnce({ followings: [person(1)], offset: 1, has_more: 0 });
    await loadMentionCandidates();
    expect($mentionCandidates.get()).toHaveLength(1);
  });

  it('suggests names starting with the query first, then names holding it', () => {
    const people = ['海边小鹿', '小鹿斑比', 'Lucy', '阿明'].map((nickname, i) => ({
      secUid: `S${i}`,
      nickname,
      avatar: null,
    }));
    expect(suggestMentions(people, '小鹿').map((p) => p.nickname)).toEqual(['小鹿斑比', '海边小鹿']);
    expect(suggestMentions(people, 'lu').map((p) => p.nickname)).toEqual(['Lucy']);
    expect(suggestMentions(people, '')).toHaveLength(4);
    expect(suggestMentions(people, '', 2)).toHaveLength(2);
  });
});
