import { describe, expect, it } from 'vitest';
import { lessen, rankCandidates, RANK, type Candidate, type ViewerSignals } from './feed-ranker.ts';

const none: ViewerSignals = {
  channel: new Map(),
  author: new Map(),
  total: 0,
  dislikedAuthor: new Map(),
  dislikedChannel: new Map(),
  watched: new Map(),
};
const c = (id: number, over: Partial<Candidate> = {}): Candidate => ({
  id,
  authorId: id,
  channelId: 1,
  score: 10,
  pool: 'popular',
  followed: false,
  watchedAt: null,
  own: false,
  ...over,
});
const NOW = Date.UTC(2026, 10, 1);

describe('the feed ranker', () => {
  it('without signals ranks by the stored score, then the newer id; works nobody engaged with come last', () => {
    const ranked = rankCandidates(
      [c(1, { score: 5 }), c(2, { score: -Infinity }), c(3, { score: 5 }), c(4, { score: 9 })],
      none,
      NOW,
    );
    expect(ranked.map((r) => r.id)).toEqual([4, 3, 1, 2]);
  });

  it('credits a work found by several pools to the first of them, and keeps the signals that weighed on it', () => {
    const s: ViewerSignals = { ...none, channel: new Map([[1, 4]]), total: 4, author: new Map([[7, 2]]) };
    const [r] = rankCandidates(
      [c(7, { pool: 'popular', followed: true }), c(7, { pool: 'follow', followed: true })],
      s,
      NOW,
    );
    expect(r!.reason.pool).toBe('follow');
    expect(r!.reason.signals).toEqual(expect.arrayContaining(['follow', 'channel', 'author', 'engagement']));
  });

  it('lifts followed authors and liked channels, sinks 不感兴趣 authors and what was watched in the last days', () => {
    const s: ViewerSignals = { ...none, dislikedAuthor: new Map([[3, 1]]), channel: new Map([[2, 6]]), total: 6 };
    const ranked = rankCandidates(
      [
        c(1),
        c(2, { followed: true }),
        c(3),
        c(4, { channelId: 2 }),
        c(5, { watchedAt: NOW - 86_400_000 }),
        // Watched minutes ago, in this session: it keeps its place.
        c(6, { watchedAt: NOW - 60_000 }),
      ],
      s,
      NOW,
    );
    const at = (id: number) => ranked.findIndex((r) => r.id === id);
    expect(at(2)).toBeLessThan(at(1));
    expect(at(4)).toBeLessThan(at(1));
    expect(at(3)).toBeGreaterThan(at(1));
    expect(at(5)).toBe(ranked.length - 1);
    expect(at(6)).toBeLessThan(at(3));
    expect(ranked[at(5)]!.reason.signals).toContain('watched');
    expect(ranked[at(3)]!.reason.signals).toContain('disliked');
    expect(ranked[at(5)]!.key).toBeCloseTo(10 + Math.log(RANK.watched));
  });
});

describe('减少此类 on a ranking', () => {
  it('sinks the works of the channels and authors the viewer wants less of, and marks them', () => {
    const ranked = rankCandidates(
      [c(1, { score: 9 }), c(2, { score: 8, channelId: 5 }), c(3, { score: 6.5 })],
      none,
      NOW,
    );
    const less = lessen(ranked, { channels: new Set([5]), authors: new Set([1]) });
    // ln(RANK.less) ≈ -3: 9 → 6 and 8 → 5 fall below 6.5.
    expect(less.map((r) => r.id)).toEqual([3, 1, 2]);
    expect(less.find((r) => r.id === 2)!.reason.signals).toContain('less');
    expect(less.find((r) => r.id === 3)!.reason.signals).not.toContain('less');
    expect(lessen(ranked, { channels: new Set(), authors: new Set() })).toEqual(ranked);
  });
});
