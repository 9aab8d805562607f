import { cleanStores } from 'nanostores';
import { getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, describe, expect, it } from 'vitest';

useTestStorageEngine();
const {
  $bandwidth,
  $quality,
  bandwidthSample,
  chooseRendition,
  mergeBandwidth,
  MIN_SAMPLE_BYTES,
  QUALITIES,
  setQuality,
  shownShortSide,
} = await import('./quality.ts');
type ChoiceInput = import('./quality.ts').ChoiceInput;

const r = (gear: 540 | 720 | 1080, width: number, height: number, bitRate: number) => ({
  gear,
  width,
  height,
  bitRate,
  url: `/media/${gear}.mp4`,
});
/** A vertical work's full ladder (the feed's usual video). */
const tall = [r(1080, 1080, 1920, 5_000_000), r(720, 720, 1280, 2_500_000), r(540, 540, 960, 1_200_000)];
/** A landscape work's full ladder. */
const wide = [r(1080, 1920, 1080, 5_000_000), r(720, 1280, 720, 2_500_000), r(540, 960, 540, 1_200_000)];
const seeded = [r(540, 540, 960, 600_000)];
const [t1080, t720, t540] = tall;

const PHONE = { width: 390, height: 844 };
const PAGE = { width: 1000, height: 562 };
const SCREEN = { width: 1920, height: 1080 };
const MBPS = 1_000_000;

describe('chooseRendition', () => {
  const cases: [string, typeof tall, Partial<ChoiceInput>, number | undefined][] = [
    // 智能 by size: the picture's short side in device pixels, the smallest rendition that covers it.
    ['a phone at 3x needs more than any rendition: the highest', tall, { box: PHONE, dpr: 3 }, 1080],
    ['the video page at 1x shows a tall video 316 px wide: 540', tall, { box: PAGE, dpr: 1 }, 540],
    ['the same page at 2x: 632 px, so 720', tall, { box: PAGE, dpr: 2 }, 720],
    ['fullscreen 1080p shows a tall video 608 px wide: 720', tall, { box: SCREEN, dpr: 1 }, 720],
    ['fullscreen 1080p shows a wide video 1080 px high: 1080', wide, { box: SCREEN, dpr: 1 }, 1080],
    // Bandwidth: never above 0.8 of it while a lower rendition exists.
    ['the phone at 4 Mbit/s: 1080 needs 5, 720 fits in 3.2', tall, { box: PHONE, dpr: 3, bandwidth: 4 * MBPS }, 720],
    ['exactly 0.8 of the bandwidth is allowed', tall, { box: PHONE, dpr: 3, bandwidth: 6.25 * MBPS }, 1080],
    ['at 1 Mbit/s even 540 is too much, but it is the lowest', tall, { box: PHONE, dpr: 3, bandwidth: 1 * MBPS }, 540],
    ['fullscreen wide at 5 Mbit/s: 720', wide, { box: SCREEN, dpr: 1, bandwidth: 5 * MBPS }, 720],
    ['a one-rendition work plays it, whatever the size', seeded, { box: SCREEN, dpr: 2 }, 540],
    ['a work without renditions has nothing to choose', [], { box: PAGE, dpr: 1 }, undefined],
    // The menu's choice wins over size and bandwidth.
    ['720P chosen: 720 even on a slow network', tall, { quality: 720, box: PHONE, dpr: 3, bandwidth: 1 * MBPS }, 720],
    ['1080P chosen on a 540-only work: 540', seeded, { quality: 1080 }, 540],
    ['720P chosen on a work of 1080 and 540: the nearest below, 540', [t1080!, t540!], { quality: 720 }, 540],
    ['540P chosen: 540 on a big screen', tall, { quality: 540, box: SCREEN, dpr: 2 }, 540],
    // 智能 keeps what plays while it is sharp enough and affordable (no reload for nothing).
    [
      '1080 playing in a small box on a fast network stays',
      tall,
      { box: PAGE, dpr: 1, bandwidth: 100 * MBPS, current: t1080 },
      1080,
    ],
    [
      '1080 playing on a 2 Mbit/s network steps down to what the size needs',
      tall,
      { box: PAGE, dpr: 1, bandwidth: 2 * MBPS, current: t1080 },
      540,
    ],
    [
      '540 playing when the box grows to a phone at 3x moves up',
      tall,
      { box: PHONE, dpr: 3, bandwidth: 100 * MBPS, current: t540 },
      1080,
    ],
    ['720 playing and sharp enough stays when bandwidth is unknown', tall, { box: PAGE, dpr: 1, current: t720 }, 720],
  ];

  it.each(cases)('%s', (_, ladder, input, gear) => {
    const chosen = chooseRendition(ladder, { quality: 'auto', box: PAGE, dpr: 1, bandwidth: 0, ...input });
    expect(chosen?.gear).toBe(gear);
  });

  it('returns one of the given objects, whatever their order', () => {
    const shuffled = [t540!, t1080!, t720!];
    expect(chooseRendition(shuffled, { quality: 'auto', box: PAGE, dpr: 2, bandwidth: 0 })).toBe(t720);
  });
});

describe('shownShortSide', () => {
  it.each([
    [PAGE, { width: 540, height: 960 }, (540 * 562) / 960],
    [PAGE, { width: 1920, height: 1080 }, 562],
    [{ width: 300, height: 300 }, { width: 0, height: 0 }, 300],
  ])('%o showing %o: %d px', (box, frame, expected) => {
    expect(shownShortSide(box, frame)).toBeCloseTo(expected);
  });
});

describe('bandwidth', () => {
  const entry = {
    initiatorType: 'video',
    transferSize: 200_300,
    encodedBodySize: 200_000,
    requestStart: 100,
    responseEnd: 300,
  };

  it.each([
    ['a video fetch: its bytes over request-to-last-byte', entry, 8_000_000],
    ['an image', { ...entry, initiatorType: 'img' }, null],
    ['a hit in the HTTP cache', { ...entry, transferSize: 0 }, null],
    ['a fetch too small to measure', { ...entry, encodedBodySize: MIN_SAMPLE_BYTES - 1 }, null],
    [
      'another origin without Timing-Allow-Origin',
      { ...entry, encodedBodySize: 0, requestStart: 0, responseEnd: 0 },
      null,
    ],
    ['no measurable time', { ...entry, responseEnd: 100 }, null],
  ])('%s', (_, e, bits) => {
    expect(bandwidthSample(e)).toBe(bits);
  });

  it('starts at the first sample, then moves 30 % towards each new one', () => {
    expect(mergeBandwidth(0, 4 * MBPS)).toBe(4 * MBPS);
    expect(mergeBandwidth(4 * MBPS, 14 * MBPS)).toBe(7 * MBPS);
  });
});

describe('remembered', () => {
  afterEach(() => cleanStores($quality, $bandwidth));

  it('offers 智能 then the gears from the highest', () => {
    expect(QUALITIES).toEqual(['auto', 1080, 720, 540]);
  });

  it('keeps the choice and the estimate in storage, and reads anything unknown as 智能', () => {
    const off = $quality.listen(() => {});
    setQuality(720);
    expect(getTestStorage()['sy.quality']).toBe('720');
    setTestStorageKey('sy.quality', '480');
    expect($quality.get()).toBe('auto');
    setTestStorageKey('sy.quality', '1080');
    expect($quality.get()).toBe(1080);
    off();
    setTestStorageKey('sy.bandwidth', 'x');
    expect($bandwidth.get()).toBe(0);
    setTestStorageKey('sy.bandwidth', '2500000');
    expect($bandwidth.get()).toBe(2_500_000);
  });
});
