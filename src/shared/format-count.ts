/** Counts as douyin.com shows them (9999, 1.2万, 3.4亿) with the units passed in, so islands need not load the catalogue. */
export function formatCountWith(n: number, units: readonly [string, string]): string {
  const cut = (x: number) => (Math.floor(x * 10) / 10).toFixed(1).replace(/\.0$/, '');
  if (n < 10_000) return String(n);
  return n < 100_000_000 ? `${cut(n / 10_000)}${units[0]}` : `${cut(n / 100_000_000)}${units[1]}`;
}
