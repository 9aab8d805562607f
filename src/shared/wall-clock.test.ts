import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, displayTimeZone, isoDay, wallClock } from './wall-clock.ts';

const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

// 01:15 on 1 April in Beijing is still 31 March in UTC.
const earlyMorning = new Date('2024-03-31T17:15:00Z');

describe('the site’s time zone', () => {
  it('is Asia/Shanghai unless TZ names another that Intl knows', () => {
    delete process.env.TZ;
    expect(displayTimeZone()).toBe(DEFAULT_TIME_ZONE);
    process.env.TZ = 'Europe/Berlin';
    expect(displayTimeZone()).toBe('Europe/Berlin');
    for (const bad of ['Mars/Olympus', '', '"><script>', ':/etc/localtime']) {
      process.env.TZ = bad;
      expect(displayTimeZone(), bad).toBe(DEFAULT_TIME_ZONE);
    }
  });

  it('dates a work by the site’s calendar, not UTC’s: published at 01:15 Beijing time is that day', () => {
    delete process.env.TZ;
    expect(isoDay(earlyMorning)).toBe('2024-04-01');
    expect(wallClock(earlyMorning)).toMatchObject({ month: '04', day: '01', hour: '01', minute: '15' });
    process.env.TZ = 'America/New_York';
    expect(isoDay(earlyMorning)).toBe('2024-03-31');
  });
});
