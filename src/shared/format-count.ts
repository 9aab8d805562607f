/** Counts as douyin.com shows them (9999, 1.2万, 3.4亿) with the units passed in, so islands need not load the catalogue. */
export function formatCountWith(n: number, units: readonly [string, string]): string {
  const cut = (x: number) => (Math.floor(x * 10) / 10).toFixed(1).replace(/\.0$/, '');
  if (n < 10_000) return String(n);
  return n < 100_000_000 ? `${cut(n / 10_000)}${units[0]}` : `${cut(n / 100_000_000)}${units[1]}`;
}

/**
 * 热度 as the 热点榜 shows it, in 万 as douyin.com does ("6.2万"): one point of the ranking's heat (a like made now)
 * reads as 1,000, so the seed's busiest video (62 points) reads 6.2万 and a few points 0.3万, never a bare "62".
 */
export const HEAT_DISPLAY_FACTOR = 1000;

/** A heat in 万 with one decimal (at least 0.1万 for any heat above 0). */
export function formatHeatWith(heat: number, tenThousand: string): string {
  const wan = (heat * HEAT_DISPLAY_FACTOR) / 10_000;
  if (wan <= 0) return `0${tenThousand}`;
  return `${Math.max(0.1, Math.floor(wan * 10) / 10)
    .toFixed(1)
    .replace(/\.0$/, '')}${tenThousand}`;
}
