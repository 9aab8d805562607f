import { describe, expect, it } from 'vitest';
import { displaySize, gearName, gearOf, gearSize, ladderFor } from './ladder.ts';

describe('ladder by the short side', () => {
  it.each([
    [1080, 1920, [540, 720, 1080]],
    [1920, 1080, [540, 720, 1080]],
    [2160, 3840, [540, 720, 1080]],
    [720, 1280, [540, 720]],
    [1000, 1000, [540, 720]],
    [540, 960, [540]],
    [360, 640, [540]],
  ])('%ix%i gets %j', (w, h, gears) => {
    expect(ladderFor(w, h)).toEqual(gears);
  });

  it('scales the short side to the gear, keeps the aspect, rounds to even and never upscales', () => {
    expect(gearSize(1080, 1920, 540)).toEqual({ width: 540, height: 960 });
    expect(gearSize(1920, 1080, 720)).toEqual({ width: 1280, height: 720 });
    expect(gearSize(3840, 2160, 1080)).toEqual({ width: 1920, height: 1080 });
    expect(gearSize(361, 641, 540)).toEqual({ width: 362, height: 642 });
    expect(gearSize(1000, 1333, 720)).toEqual({ width: 720, height: 960 });
  });

  it('swaps width and height for a quarter-turn rotation', () => {
    expect(displaySize(1920, 1080, 90)).toEqual({ width: 1080, height: 1920 });
    expect(displaySize(1920, 1080, -90)).toEqual({ width: 1080, height: 1920 });
    expect(displaySize(1920, 1080, 180)).toEqual({ width: 1920, height: 1080 });
  });

  it("names gears as Douyin's bit_rate entries do", () => {
    expect(gearName(1080)).toBe('normal_1080_0');
    expect(gearOf(540, 960)).toBe(540);
    expect(gearOf(1080, 1920)).toBe(1080);
    expect(gearOf(300, 400)).toBe(540);
  });
});
