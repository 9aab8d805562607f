/** The seed's randomness: one fixed-seed PRNG whose draws, in order, decide every row. */

/** The seed every plan starts from. */
export const SEED = 20_240_601;

/** mulberry32: a tiny, fast PRNG whose sequence is the same on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type Rng = ReturnType<typeof makeRng>;

/** Draws built on mulberry32: integers, picks, weighted indexes and samples. */
export function makeRng(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  /** An index drawn with probability proportional to weights[i] (cumulative precomputed by `cumulate`). */
  const weighted = (cumulative: number[]): number => {
    const target = next() * cumulative[cumulative.length - 1]!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  /** Up to k distinct weighted indexes, skipping those `exclude` rejects. */
  const sample = (cumulative: number[], k: number, exclude: (i: number) => boolean = () => false): number[] => {
    const chosen = new Set<number>();
    for (let attempts = 0; chosen.size < k && attempts < k * 20; attempts++) {
      const i = weighted(cumulative);
      if (!exclude(i)) chosen.add(i);
    }
    return [...chosen];
  };
  return { next, int, pick, weighted, sample, chance: (p: number) => next() < p };
}

/** Running sums of `weights`, for `weighted` and `sample`. */
export function cumulate(weights: number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}
