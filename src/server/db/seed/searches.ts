/** Search history: queries from hashtags, title words, dramas and popular creators; half in the last 24 hours. */
import { CHANNEL_IDS, CHANNELS, THEATRE } from './content.ts';
import { DAY, type PlanContext } from './context.ts';
import { cumulate } from './rng.ts';
import type { Cast } from './users.ts';

export interface SearchPlan {
  userId: number | null;
  query: string;
  createdAt: number;
}

const SEARCHES = 900;

export function planSearches(
  { rng, ago }: PlanContext,
  { users, creators, activeCum }: Cast,
  hashtagIds: Map<string, number>,
): SearchPlan[] {
  const queryPool = [
    ...new Set([
      ...[...hashtagIds.keys()],
      ...CHANNEL_IDS.flatMap((c) => CHANNELS[c].a),
      ...THEATRE.map((d) => d.title),
      ...[...creators]
        .sort((x, y) => y.weight - x.weight)
        .slice(0, 8)
        .map((u) => u.nickname),
    ]),
  ];
  for (let i = queryPool.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [queryPool[i], queryPool[j]] = [queryPool[j]!, queryPool[i]!];
  }
  const queryCum = cumulate(queryPool.map((_, i) => 1 / (i + 1) ** 0.9));
  return Array.from({ length: SEARCHES }, () => {
    const roll = rng.next();
    const offset =
      roll < 0.5 ? rng.next() * DAY : roll < 0.7 ? (1 + rng.next() * 2) * DAY : (3 + rng.next() * 27) * DAY;
    return {
      userId: rng.chance(0.6) ? users[rng.weighted(activeCum)]!.id : null,
      query: queryPool[rng.weighted(queryCum)]!,
      createdAt: ago(offset),
    };
  }).sort((x, y) => x.createdAt - y.createdAt);
}
