import { describe, expect, it } from 'vitest';
import { addSample, rateOf, secondsLeft, type RateSample } from './upload-rate.ts';

describe('upload rate', () => {
  it('measures bytes per second over the last window only', () => {
    let samples: RateSample[] = [];
    samples = addSample(samples, { at: 0, bytes: 0 }, 4000);
    expect(rateOf(samples)).toBe(0);
    samples = addSample(samples, { at: 1000, bytes: 1000 }, 4000);
    expect(rateOf(samples)).toBe(1000);
    // After a long stall the last two samples still give a (slow) rate.
    samples = addSample(samples, { at: 9000, bytes: 2000 }, 4000);
    expect(samples.map((s) => s.at)).toEqual([1000, 9000]);
    expect(rateOf(samples)).toBe(125);
    // A fast burst: the old slow samples fall out of the window.
    samples = addSample(samples, { at: 10_000, bytes: 12_000 }, 4000);
    samples = addSample(samples, { at: 11_000, bytes: 22_000 }, 4000);
    expect(samples.map((s) => s.at)).toEqual([9000, 10_000, 11_000]);
    expect(rateOf(samples)).toBe(10_000);
  });

  it('starts again when the offset goes back (a retried chunk)', () => {
    let samples: RateSample[] = [
      { at: 0, bytes: 0 },
      { at: 1000, bytes: 5000 },
    ];
    samples = addSample(samples, { at: 2000, bytes: 3000 });
    expect(samples).toEqual([
      { at: 0, bytes: 0 },
      { at: 2000, bytes: 3000 },
    ]);
    expect(rateOf(samples)).toBe(1500);
  });

  it('gives the time left, unknown without a rate', () => {
    expect(secondsLeft(500, 1500, 100)).toBe(10);
    expect(secondsLeft(1500, 1500, 100)).toBe(0);
    expect(secondsLeft(0, 1500, 0)).toBeNull();
  });
});
