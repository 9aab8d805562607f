/**
 * Calendar dates and clock times as the portal shows them: in China's time zone, on the server and in every browser
 * alike. A page rendered on a UTC server and hydrated in a browser at UTC+8 would otherwise disagree on "11-23" versus
 * "11-24" for eight hours a day, and React would throw the server's markup away (and with it a click being replayed).
 */
export const DISPLAY_TIME_ZONE = 'Asia/Shanghai';

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

const format = new Intl.DateTimeFormat('en-US', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The date and time `date` shows on a clock in China. */
export function wallClock(date: Date): WallClock {
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(date)) parts[p.type] = p.value;
  return { year: Number(parts.year), month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** Whether two instants fall on the same calendar day in China. */
export function sameDay(a: WallClock, b: WallClock): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** MM-DD within `now`'s year, YYYY-MM-DD before. */
export function calendarDate(date: WallClock, now: WallClock): string {
  return date.year === now.year ? `${date.month}-${date.day}` : `${date.year}-${date.month}-${date.day}`;
}
