/** 清晰度: the viewer's remembered choice, the measured bandwidth, and which rendition of a video plays. */
import { persistentAtom } from '@nanostores/persistent';
import { GEARS, type Gear } from '../shared/studio.ts';
import { asGear, type Rendition } from '../shared/video-item.ts';

/** 智能 (chosen by size and bandwidth) or one gear. */
export type Quality = 'auto' | Gear;

/** The 清晰度 menu's entries, in menu order. */
export const QUALITIES: readonly Quality[] = ['auto', ...[...GEARS].reverse()];

/** A rendition may take at most this share of the measured bandwidth, so playback keeps ahead of the network. */
export const BANDWIDTH_SHARE = 0.8;
/** Media fetches smaller than this say more about latency than about bandwidth: they are not sampled. */
export const MIN_SAMPLE_BYTES = 64 * 1024;
/** Weight of a new sample in the running estimate (the rest is the estimate so far). */
export const SAMPLE_WEIGHT = 0.3;

/** The 清晰度 chosen in the menu, remembered in localStorage (`sy.quality`); anything unknown reads as 智能. */
export const $quality = persistentAtom<Quality>('sy.quality', 'auto', {
  encode: String,
  decode: (raw) => asGear(Number(raw)) ?? 'auto',
});

/** The measured bandwidth in bits per second (0 before the first sample), remembered across visits (`sy.bandwidth`). */
export const $bandwidth = persistentAtom<number>('sy.bandwidth', 0, {
  encode: String,
  decode: (raw) => (Number(raw) > 0 ? Math.round(Number(raw)) : 0),
});

export function setQuality(quality: Quality): void {
  $quality.set(quality);
}

type Size = { width: number; height: number };
type Step = Pick<Rendition, 'gear' | 'width' | 'height' | 'bitRate'>;

/** What the player knows when it chooses: the menu's choice, the element's CSS size, the pixel ratio, the bandwidth. */
export interface ChoiceInput {
  quality: Quality;
  box: Size;
  dpr: number;
  /** Bits per second; 0 when not measured yet (then only the size decides). */
  bandwidth: number;
  /** The rendition playing now: 智能 keeps it while it is sharp enough and affordable, sparing a reload. */
  current?: Step;
}

/** The short side, in CSS pixels, of a `frame` fitted inside `box` (the player shows videos object-contain). */
export function shownShortSide(box: Size, frame: Size): number {
  if (frame.width <= 0 || frame.height <= 0) return Math.min(box.width, box.height);
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  return Math.min(frame.width, frame.height) * scale;
}

const shortSide = (r: Step) => Math.min(r.width, r.height) || r.gear;

/**
 * The rendition to play. A gear chosen in the menu plays that gear (or the nearest one below it, else the lowest);
 * 智能 takes the smallest rendition whose short side covers the picture's short side in device pixels, then steps down
 * while its bit rate is above BANDWIDTH_SHARE of the measured bandwidth and a lower one exists.
 */
export function chooseRendition<R extends Step>(renditions: readonly R[], input: ChoiceInput): R | undefined {
  const ladder = [...renditions].sort((a, b) => b.gear - a.gear);
  const lowest = ladder.at(-1);
  if (!lowest) return undefined;
  if (input.quality !== 'auto') {
    const gear = input.quality;
    return ladder.find((r) => r.gear <= gear) ?? lowest;
  }
  const need = shownShortSide(input.box, ladder[0]!) * input.dpr;
  const affordable = (r: Step) => input.bandwidth <= 0 || r.bitRate <= BANDWIDTH_SHARE * input.bandwidth;
  const covers = (r: Step) => shortSide(r) >= need;
  const current = ladder.find((r) => r === input.current);
  if (current && covers(current) && (affordable(current) || current === lowest)) return current;
  const sharp = ladder.findLastIndex(covers);
  return ladder.slice(Math.max(sharp, 0)).find(affordable) ?? lowest;
}

/** Bits per second of one finished media fetch (a resource timing entry), or null when it says nothing of the network. */
export function bandwidthSample(
  e: Pick<
    PerformanceResourceTiming,
    'initiatorType' | 'transferSize' | 'encodedBodySize' | 'requestStart' | 'responseEnd'
  >,
): number | null {
  // transferSize 0: served from the HTTP cache; encodedBodySize 0: another origin without Timing-Allow-Origin.
  if (
    (e.initiatorType !== 'video' && e.initiatorType !== 'audio') ||
    e.transferSize === 0 ||
    e.encodedBodySize < MIN_SAMPLE_BYTES
  )
    return null;
  const ms = e.responseEnd - e.requestStart;
  return ms > 0 ? (e.encodedBodySize * 8 * 1000) / ms : null;
}

/** The running estimate after one more sample (an exponentially weighted mean). */
export function mergeBandwidth(estimate: number, sample: number): number {
  return Math.round(estimate > 0 ? estimate * (1 - SAMPLE_WEIGHT) + sample * SAMPLE_WEIGHT : sample);
}

let watching = false;

/**
 * Measures the bandwidth from the page's media fetches: every finished <video> request of at least MIN_SAMPLE_BYTES
 * counts its bytes over its time from request to last byte (so latency weighs on small files, which errs low).
 */
export function watchBandwidth(): void {
  if (watching || typeof PerformanceObserver === 'undefined') return;
  watching = true;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const sample = bandwidthSample(entry as PerformanceResourceTiming);
        if (sample) $bandwidth.set(mergeBandwidth($bandwidth.get(), sample));
      }
    }).observe({ type: 'resource', buffered: true });
  } catch {
    // An engine without resource timing for media: the saved estimate stands, and the size alone decides.
  }
}
