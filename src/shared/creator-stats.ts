/**
 * 作品数据 (the studio's analytics) as the browser and the server both see it: the ranges, the figures, the API's path
 * and answer. Browser-safe: no imports. Days are calendar days in China (Asia/Shanghai), as YYYY-MM-DD.
 */

/** GET ?days=7|30&workId= → CreatorStats (Family B envelope). Login required. */
export const STATS_API = '/api/studio/stats';

/** The ranges a creator may look back over, in days, today included; the first is the default. */
export const STATS_RANGES = [7, 30] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

/** The figures, in the order the page shows them. */
export const STATS_METRICS = ['plays', 'likes', 'comments', 'shares', 'newFollowers'] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];

export type StatsFigures = Record<StatsMetric, number>;

/** One calendar day's figures. A day can go below zero: an unlike or a deleted comment counts on the day it happens. */
export interface StatsDay extends StatsFigures {
  /** YYYY-MM-DD in China. */
  day: string;
}

/** A work to pick in the filter. */
export interface StatsWork {
  id: number;
  title: string;
}

export interface CreatorStats {
  days: StatsRange;
  /** The work the figures are limited to, or null for all the creator's works. */
  workId: number | null;
  /** Sums of `daily`. */
  totals: StatsFigures;
  /**
   * Every day of the range, oldest first, days without activity as zeros. New followers are the account's, with or
   * without a work: a follow is not tied to a video.
   */
  daily: StatsDay[];
  /** The choices of the work filter: the creator's newest published works (50 at most), then the chosen one if older. */
  works: StatsWork[];
}

/** The range a `?days=` parameter names, or the default when it names none. */
export function statsRange(value: string | null | undefined): StatsRange {
  return STATS_RANGES.find((r) => String(r) === value) ?? STATS_RANGES[0];
}

/** A `?workId=` parameter as a positive id, or undefined for all works. */
export function statsWorkId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : undefined;
}

/** What a page passes to the 作品数据 view from its query string (`?days=7|30&workId=`). */
export function statsQuery(params: URLSearchParams): { days: StatsRange; workId?: number } {
  const workId = statsWorkId(params.get('workId'));
  return workId === undefined
    ? { days: statsRange(params.get('days')) }
    : { days: statsRange(params.get('days')), workId };
}
