/**
 * The video filters of search (筛选), with Douyin's parameter names and values: the results page puts them in its
 * address, the API takes them, and the server reads both through here.
 */

/** sort_type: 0 综合排序, 1 最多点赞, 2 最新发布. */
export const SORT_TYPES = [0, 1, 2] as const;
export type SortType = (typeof SORT_TYPES)[number];

/** publish_time, in days: 0 不限, 1 一天内, 7 一周内, 180 半年内. */
export const PUBLISH_TIMES = [0, 1, 7, 180] as const;
export type PublishTime = (typeof PUBLISH_TIMES)[number];

/** filter_duration, in minutes: 不限, 1分钟以下, 1-5分钟, 5分钟以上. */
export const DURATIONS = ['0', '0-1', '1-5', '5-10000'] as const;
export type Duration = (typeof DURATIONS)[number];

export interface SearchFilters {
  sortType: SortType;
  publishTime: PublishTime;
  duration: Duration;
}

export const NO_FILTERS: SearchFilters = { sortType: 0, publishTime: 0, duration: '0' };

/** The address parameters, Douyin's names. */
export const FILTER_PARAMS = {
  sortType: 'sort_type',
  publishTime: 'publish_time',
  duration: 'filter_duration',
} as const;

const pick = <T extends string | number>(allowed: readonly T[], raw: string | null | undefined, fallback: T): T =>
  allowed.find((v) => String(v) === raw) ?? fallback;

/** The filters an address asks for; anything unknown is 不限 (or 综合排序). */
export function parseFilters(params: { get(name: string): string | null }): SearchFilters {
  return {
    sortType: pick(SORT_TYPES, params.get(FILTER_PARAMS.sortType), 0),
    publishTime: pick(PUBLISH_TIMES, params.get(FILTER_PARAMS.publishTime), 0),
    duration: pick(DURATIONS, params.get(FILTER_PARAMS.duration), '0'),
  };
}

/** Whether any filter narrows or reorders the results. */
export function isFiltered(f: SearchFilters): boolean {
  return f.sortType !== 0 || f.publishTime !== 0 || f.duration !== '0';
}

/** The filters as address parameters, leaving out those at their default (`[['sort_type', '2']]`). */
export function filterParams(f: SearchFilters): [string, string][] {
  const out: [string, string][] = [];
  if (f.sortType !== 0) out.push([FILTER_PARAMS.sortType, String(f.sortType)]);
  if (f.publishTime !== 0) out.push([FILTER_PARAMS.publishTime, String(f.publishTime)]);
  if (f.duration !== '0') out.push([FILTER_PARAMS.duration, f.duration]);
  return out;
}

/** The length range of a duration filter, in milliseconds: at least `minMs`, less than `maxMs` (null: no bound). */
export function durationRange(d: Duration): { minMs: number; maxMs: number | null } {
  if (d === '0') return { minMs: 0, maxMs: null };
  const [from, to] = d.split('-').map(Number) as [number, number];
  return { minMs: from * 60_000, maxMs: to >= 10_000 ? null : to * 60_000 };
}
