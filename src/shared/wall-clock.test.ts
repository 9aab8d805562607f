import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, displayTimeZone, isoDay, useTimeZone, wallClock } from './wall-clock.ts';

afterEach(() => useTimeZone(undefined));

// 01:15 on 1 April in Beijing is still 31 March in UTC.
const earlyMorning = new Date('2024-03-31T17:15:00Z');

describe('the site’s time zone', () => {
  it('is Asia/Shanghai unless the server is handed another that Intl knows', () => {
    useTimeZone(undefined);
    expect(displayTimeZone()).toBe(DEFAULT_TIME_ZONE);
    useTimeZone('Europe/Berlin');
    expect(displayTimeZone()).toBe('Europe/Berlin');
    for (const bad of ['Mars/Olympus', '', '"><script>', ':/etc/localtime']) {
      useTimeZone(bad);
      expect(displayTimeZone(), bad).toBe(DEFAULT_TIME_ZONE);
    }
  });

  it('dates a work by the site’s calendar, not UTC’s: published at 01:15 Beijing time is that day', () => {
    useTimeZone(undefined);
    expect(isoDay(earlyMorning)).toBe('2024-04-01');
    expect(wallClock(earlyMorning)).toMatchObject({ month: '04', day: '01', hour: '01', minute: '15' });
    useTimeZone('America/New_York');
    expect(isoDay(earlyMorning)).toBe('2024-03-31');
  });
});

describe('the wall clock of a zone with one offset', () => {
  const options = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' } as const;
  const viaIntl = (date: Date, timeZone: string) => {
    const parts: Record<string, string> = {};
    const format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', ...options });
    for (const p of format.formatToParts(date)) parts[p.type] = p.value;
    return { year: Number(parts.year), month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
  };
  // Every ~6.3 days from 1992 to 2100 (odd minutes and hours included), and either side of midnight and New Year.
  const instants = [
    new Date('1992-01-01T00:00:00Z'),
    new Date('2024-12-31T15:59:59Z'),
    new Date('2024-12-31T16:00:00Z'),
    new Date('2024-02-28T16:00:00Z'),
    ...Array.from({ length: 6300 }, (_, i) => new Date(Date.UTC(1992, 0, 1) + i * 545_077_000)),
  ];

  it.each(['Asia/Shanghai', 'UTC'])('reads %s as Intl does', (zone) => {
    for (const date of instants) expect(wallClock(date, zone), date.toISOString()).toEqual(viaIntl(date, zone));
  });

  it('reads Asia/Shanghai before 1992 (summer time) through Intl', () => {
    const summer1990 = new Date('1990-07-01T15:30:00Z');
    expect(wallClock(summer1990, 'Asia/Shanghai')).toEqual(viaIntl(summer1990, 'Asia/Shanghai'));
    expect(wallClock(summer1990, 'Asia/Shanghai').hour).toBe('00');
  });

  it('refuses an invalid date as Intl does', () => {
    expect(() => wallClock(new Date(Number.NaN), 'Asia/Shanghai')).toThrow(RangeError);
  });
});
