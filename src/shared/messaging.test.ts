import { describe, expect, it } from 'vitest';
import { formatNoticeDate, NOTICE_GROUPS, NOTICE_KINDS } from './messaging.ts';

describe('formatNoticeDate', () => {
  const now = new Date(2026, 10, 24, 15, 30);
  it.each([
    [new Date(2026, 10, 24, 15, 29, 30), '刚刚'],
    [new Date(2026, 10, 24, 15, 5), '25分钟前'],
    [new Date(2026, 10, 24, 0, 10), '15小时前'],
    [new Date(2026, 10, 23, 23, 50), '11-23'],
    [new Date(2026, 0, 2, 8, 0), '01-02'],
    [new Date(2025, 11, 31, 23, 0), '2025-12-31'],
  ])('%s → %s', (date, text) => {
    expect(formatNoticeDate(date, now)).toBe(text);
  });
});

describe('NOTICE_GROUPS', () => {
  it('covers every kind once across the five filters besides 全部消息', () => {
    const { all, ...rest } = NOTICE_GROUPS;
    expect([...all].sort()).toEqual([...NOTICE_KINDS].sort());
    expect(Object.values(rest).flat().sort()).toEqual([...NOTICE_KINDS].sort());
  });
});
