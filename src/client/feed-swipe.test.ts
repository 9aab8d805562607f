import { afterEach, describe, expect, it } from 'vitest';
import { PENDING_SWIPE_KEY, swipeStep, takePendingSwipe } from './feed-swipe.ts';

describe('swipeStep', () => {
  it.each([
    [{ dy: -120, ms: 400 }, 1],
    [{ dy: 120, ms: 400 }, -1],
    [{ dy: -81, ms: 1000 }, 1],
    [{ dy: -80, ms: 1000 }, 0],
    // A short flick pages; the same distance slowly does not.
    [{ dy: -40, ms: 50 }, 1],
    [{ dy: 40, ms: 50 }, -1],
    [{ dy: -40, ms: 400 }, 0],
    [{ dy: -20, ms: 10 }, 0],
    [{ dy: 0, ms: 0 }, 0],
  ])('%o → %i', (swipe, step) => {
    expect(swipeStep(swipe)).toBe(step);
  });
});

describe('takePendingSwipe', () => {
  const w = globalThis as unknown as Record<string, unknown>;
  afterEach(() => {
    delete w[PENDING_SWIPE_KEY];
  });
  it('takes the recorded swipe once', () => {
    w[PENDING_SWIPE_KEY] = { dy: -100, ms: 200 };
    expect(takePendingSwipe()).toEqual({ dy: -100, ms: 200 });
    expect(takePendingSwipe()).toBeNull();
  });
  it('ignores anything else', () => {
    w[PENDING_SWIPE_KEY] = { dy: 'x', ms: 1 };
    expect(takePendingSwipe()).toBeNull();
  });
});
