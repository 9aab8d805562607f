import { describe, expect, it } from 'vitest';
import type { FeedReason } from '../../shared/feed-reason.ts';
import { rankCandidates, type Candidate, type ViewerSignals } from './feed-ranker.ts';
import { describeReason } from './feed-reasons.ts';

const FOOD = 300204;
const names = new Map([
  [FOOD, '美食'],
  [300207, '体育'],
]);
const none: ViewerSignals = {
  channel: new Map(),
  author: new Map(),
  total: 0,
  dislikedAuthor: new Map(),
  dislikedChannel: new Map(),
  watched: new Map(),
};
const candidate = (over: Partial<Candidate>): Candidate => ({
  id: 1,
  authorId: 9,
  channelId: FOOD,
  score: 3,
  pool: 'popular',
  followed: false,
  watchedAt: null,
  own: false,
  ...over,
});

describe('为什么推荐 in words', () => {
  // Each pool as the ranker credits it, from a candidate of that pool and the signals a viewer would have.
  it.each([
    ['follow', candidate({ pool: 'follow', followed: true }), none, '你关注的作者'],
    ['own', candidate({ pool: 'own', own: true, authorId: 5 }), none, '你发布的作品'],
    ['affinity', candidate({ pool: 'affinity' }), { ...none, channel: new Map([[FOOD, 4]]), total: 4 }, '你常看的美食'],
    ['affinity', candidate({ pool: 'affinity' }), { ...none, author: new Map([[9, 3]]) }, '你常看TA的作品'],
    ['fresh', candidate({ pool: 'fresh' }), none, '新作品'],
    ['popular', candidate({ pool: 'popular' }), none, '热门'],
    ['explore', candidate({ pool: 'explore', channelId: 300207 }), none, '探索你少看的体育'],
  ] as const)('the %s pool: %#', (pool, c, signals, words) => {
    const [ranked] = rankCandidates([c], signals);
    const r = describeReason(ranked!.reason, c.channelId, names);
    expect(r.code).toBe(pool);
    expect(r.text).toBe(words);
    expect(r.channelId).toBe(c.channelId);
    expect(r.channelName).toBe(names.get(c.channelId));
    expect(r.signals).toEqual(ranked!.reason.signals);
  });

  it('names no channel it does not know rather than a placeholder', () => {
    const r = describeReason({ pool: 'affinity', signals: ['channel'] } satisfies FeedReason, 1, names);
    expect(r.text).toBe('你常看的');
    expect(r.text).not.toContain('{');
  });
});
