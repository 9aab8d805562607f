/**
 * The feed's spreading rule: no author twice in a row where another is at hand, otherwise the ranked order. `rows`
 * join `before` (a list already shown), so the seam counts too; the server spreads each page, the browser each join.
 */
export function spreadAuthors<T>(rows: readonly T[], authorOf: (row: T) => string | number, before: readonly T[] = []): T[] {
  const rest = [...rows];
  const out = [...before];
  while (rest.length) {
    const last = out.length ? authorOf(out[out.length - 1]!) : undefined;
    const i = rest.findIndex((r) => authorOf(r) !== last);
    out.push(...rest.splice(i === -1 ? 0 : i, 1));
  }
  return out;
}
