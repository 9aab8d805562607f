/** Upload speed and time left from progress samples: bytes over the last few seconds, so a stall shows at once. */

/** How far back the speed looks. */
export const RATE_WINDOW_MS = 4000;

export interface RateSample {
  at: number;
  bytes: number;
}

/** The samples inside the window after adding `sample` (at least the last two, so a slow trickle still has a rate). */
export function addSample(samples: RateSample[], sample: RateSample, windowMs = RATE_WINDOW_MS): RateSample[] {
  // Bytes going back (a retried chunk restarts from the server's offset) start a fresh measurement.
  const next = [...samples.filter((s) => s.bytes <= sample.bytes), sample];
  const recent = next.filter((s) => sample.at - s.at <= windowMs);
  return recent.length >= 2 ? recent : next.slice(-2);
}

/** Bytes per second over the samples, or 0 while there is not enough to tell. */
export function rateOf(samples: RateSample[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < 250) return 0;
  return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
}

/** Seconds left at `rate`, or null when the rate is unknown. */
export function secondsLeft(sent: number, total: number, rate: number): number | null {
  if (rate <= 0) return null;
  return Math.max(0, Math.ceil((total - sent) / rate));
}
