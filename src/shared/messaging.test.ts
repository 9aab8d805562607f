import { describe, expect, it } from 'vitest';
import { formatMessageTime, formatNoticeDate, NOTICE_GROUPS, NOTICE_KINDS } from './messaging.ts';

/** An instant given as China's wall clock (UTC+8, no daylight saving). */
const bj = (y: number, m: number, d: number, h: number, min = 0) => new Date(Date.UTC(y, m - 1, d, h - 8, min));

describe('formatNoticeDate', () => {
  const now = bj(2026, 11, 24, 15, 30);
  it.each([
    [new Date(bj(2026, 11, 24, 15, 30).getTime() - 30_000), '刚刚'],
    [bj(2026, 11, 24, 15, 5), '25分钟前'],
    [bj(2026, 11, 24, 0, 10), '15小时前'],
    [bj(2026, 11, 23, 23, 50), '11-23'],
    [bj(2026, 1, 2, 8), '01-02'],
    [bj(2025, 12, 31, 23), '2025-12-31'],
  ])('%s → %s', (date, text) => {
    expect(formatNoticeDate(date, now)).toBe(text);
  });
});

describe('formatMessageTime', () => {
  it('shows the clock today and the date before, by China’s calendar whatever the machine’s zone', () => {
    const now = bj(2026, 11, 24, 1, 0);
    expect(formatMessageTime(bj(2026, 11, 24, 0, 5), now)).toBe('00:05');
    expect(formatMessageTime(bj(2026, 11, 23, 23, 59), now)).toBe('11-23 23:59');
  });
});

describe('NOTICE_GROUPS', () => {
  it('covers every kind once across the five filters besides 全部消息', () => {
    const { all, ...rest } = NOTICE_GROUPS;
    expect([...all].sort()).toEqual([...NOTICE_KINDS].sort());
    expect(Object.values(rest).flat().sort()).toEqual([...NOTICE_KINDS].sort());
  });
});
