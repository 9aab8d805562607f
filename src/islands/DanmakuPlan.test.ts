import { describe, expect, it } from 'vitest';
import { dueBetween, holdLane, LANE_GAP_PX, planLane, type Lane } from './DanmakuPlan.ts';

describe('danmaku lanes', () => {
  it('fills lanes top down and books each until the danmaku has cleared the edge', () => {
    const lanes: Lane[] = [{ freeAt: 0 }, { freeAt: 0 }];
    expect(planLane(lanes, 100, 76, 0.1)).toBe(0);
    expect(lanes[0]!.freeAt).toBe(100 + (76 + LANE_GAP_PX) / 0.1);
    expect(planLane(lanes, 100, 50, 0.1)).toBe(1);
    // Both busy: dropped, not stacked.
    expect(planLane(lanes, 200, 50, 0.1)).toBe(-1);
    expect(planLane(lanes, 1100, 50, 0.1)).toBe(0);
  });

  it('never drops the viewer’s own: with every lane busy it takes the one that frees first', () => {
    const lanes: Lane[] = [{ freeAt: 900 }, { freeAt: 500 }, { freeAt: 700 }];
    expect(planLane(lanes, 100, 50, 0.1)).toBe(-1);
    expect(planLane(lanes, 100, 50, 0.1, true)).toBe(1);
    expect(lanes[1]!.freeAt).toBe(100 + (50 + LANE_GAP_PX) / 0.1);
    expect(holdLane(lanes, 100, 4000, true)).toBe(2);
    expect(lanes[2]!.freeAt).toBe(4100);
    expect(planLane([], 100, 50, 0.1, true)).toBe(-1);
  });

  it('with reduced motion, books a lane for as long as its danmaku stands there', () => {
    const lanes: Lane[] = [{ freeAt: 0 }, { freeAt: 0 }];
    expect(holdLane(lanes, 100, 4000)).toBe(0);
    expect(lanes[0]!.freeAt).toBe(4100);
    expect(holdLane(lanes, 200, 4000)).toBe(1);
    expect(holdLane(lanes, 4000, 4000)).toBe(-1);
    expect(holdLane(lanes, 4100, 4000)).toBe(0);
  });

  it('picks the danmaku whose time falls in [from, to)', () => {
    const list = [0, 500, 500, 1200, 3000].map((at, i) => ({ id: String(i), text: `d${i}`, at }));
    expect(dueBetween(list, 0, 500).map((b) => b.id)).toEqual(['0']);
    expect(dueBetween(list, 500, 1201).map((b) => b.id)).toEqual(['1', '2', '3']);
    expect(dueBetween(list, 1201, 2999)).toEqual([]);
    expect(dueBetween(list, 2999, 10_000).map((b) => b.id)).toEqual(['4']);
    expect(dueBetween([], 0, 1)).toEqual([]);
  });
});
