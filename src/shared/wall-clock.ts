/**
 * Calendar dates and clock times as the portal shows them: in the site's time zone (Asia/Shanghai unless `TZ` names
 * another), on the server and in every browser alike. A page rendered on a UTC server and hydrated in a browser at
 * UTC+8 would otherwise disagree on "11-23" versus "11-24" for eight hours a day, and React would throw the server's
 * markup away (and with it a click being replayed). The server's configuration (`TZ`) hands the zone in at start
 * (useTimeZone); a page carries it on <html data-tz>, where the browser reads it, so both format with the same zone
 * whatever the machine's own.
 */

/** The zone when `TZ` names none (or none that Intl knows). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/**
 * Zones that have kept one offset from UTC (minutes) since an instant: China has had no summer time since 1991. Their
 * wall clock is Date arithmetic, not Intl, whose first use in a page costs a phone a long task while ICU loads its data
 * (30-80 ms in Chromium here, four times that on Lighthouse's phone), as a hydrating list of dated cards would pay.
 */
const FIXED_OFFSETS = new Map<string, { minutes: number; since: number }>([
  ['Asia/Shanghai', { minutes: 480, since: Date.UTC(1992, 0, 1) }],
  ['UTC', { minutes: 0, since: -Infinity }],
]);

/** Zones asked about, by name: whether Intl knows each (making a format to find out costs tens of microseconds). */
const known = new Map<string, boolean>();

/** Whether Intl knows `zone` as an IANA time zone. */
export function knownTimeZone(zone: string | undefined): zone is string {
  if (!zone || !/^[A-Za-z_+\-/0-9]{1,64}$/.test(zone)) return false;
  if (FIXED_OFFSETS.has(zone)) return true;
  let answer = known.get(zone);
  if (answer === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      answer = true;
    } catch {
      answer = false;
    }
    // A handful of zones at most: the configured one and the page's.
    if (known.size < 64) known.set(zone, answer);
  }
  return answer;
}

// The zone the server was configured with, kept on globalThis so that every copy of this module in the process (the
// server's and the Astro build's) sees the one handed in.
const ZONE = Symbol.for('shanying.timeZone');
const handed = globalThis as { [ZONE]?: string };

/** Sets the site's time zone on the server (the configuration does, from `TZ`); one Intl does not know is ignored. */
export function useTimeZone(zone: string | undefined): void {
  handed[ZONE] = knownTimeZone(zone) ? zone : undefined;
}

/** The site's time zone: the page's data-tz in a browser, the configured one on the server, else Asia/Shanghai. */
export function displayTimeZone(): string {
  const zone = typeof document === 'undefined' ? handed[ZONE] : document.documentElement.dataset.tz;
  return knownTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

export interface WallClock {
  year: number;
  /** 01-12 */
  month: string;
  /** 01-31 */
  day: string;
  /** 00-23 */
  hour: string;
  /** 00-59 */
  minute: string;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The date and time `date` shows on a clock of the site's zone (or of `zone`). */
export function wallClock(date: Date, zone = displayTimeZone()): WallClock {
  const fixed = FIXED_OFFSETS.get(zone);
  // An invalid date (NaN) fails the comparison and goes to Intl, which throws as it always did.
  if (fixed && date.getTime() >= fixed.since) {
    const local = new Date(date.getTime() + fixed.minutes * 60_000);
    return {
      year: local.getUTCFullYear(),
      month: twoDigits(local.getUTCMonth() + 1),
      day: twoDigits(local.getUTCDate()),
      hour: twoDigits(local.getUTCHours()),
      minute: twoDigits(local.getUTCMinutes()),
    };
  }
  const parts: Record<string, string> = {};
  for (const p of formatIn(zone).formatToParts(date)) parts[p.type] = p.value;
  return { year: Number(parts.year), month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** Whether two instants fall on the same calendar day of the site's zone. */
export function sameDay(a: WallClock, b: WallClock): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** MM-DD within `now`'s year, YYYY-MM-DD before. */
export function calendarDate(date: WallClock, now: WallClock): string {
  return date.year === now.year ? `${date.month}-${date.day}` : `${date.year}-${date.month}-${date.day}`;
}

/** YYYY-MM-DD of `date` in the site's zone (发布时间). */
export function isoDay(date: Date, zone = displayTimeZone()): string {
  const c = wallClock(date, zone);
  return `${c.year}-${c.month}-${c.day}`;
}
