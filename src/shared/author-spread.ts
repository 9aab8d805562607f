/**
 * The feed's spreading rule: no author twice in a row where another is at hand, otherwise the ranked order. `rows`
 * join `before` (a list already shown), so the seam counts too; the server spreads each page, the browser each join.
 * Each place takes the best-ranked row that still leaves the rest a way to be spread: plain "next other author" ran
 * into a tail of one author ([B, A, A] stayed as is; [A, B, A] was at hand).
 */
export function spreadAuthors<T>(
  rows: readonly T[],
  authorOf: (row: T) => string | number,
  before: readonly T[] = [],
): T[] {
  const rest = [...rows];
  const out = [...before];
  while (rest.length) {
    const last = out.length ? authorOf(out[out.length - 1]!) : undefined;
    const others = rest.flatMap((r, i) => (authorOf(r) !== last ? [i] : []));
    const i =
      others.find((k) =>
        canSpread(
          rest.filter((_, j) => j !== k),
          authorOf,
          authorOf(rest[k]!),
        ),
      ) ??
      others[0] ??
      0;
    out.push(...rest.splice(i, 1));
  }
  return out;
}

/** Whether `rows` can follow a row by `last` with no author twice in a row: none may fill more than every other place. */
function canSpread<T>(rows: readonly T[], authorOf: (row: T) => string | number, last: string | number): boolean {
  const counts = new Map<string | number, number>();
  for (const r of rows) counts.set(authorOf(r), (counts.get(authorOf(r)) ?? 0) + 1);
  for (const [author, n] of counts) {
    if (n > (author === last ? Math.floor(rows.length / 2) : Math.ceil(rows.length / 2))) return false;
  }
  return true;
}
