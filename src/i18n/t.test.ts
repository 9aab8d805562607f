import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatCount, formatDuration, formatMessageTime, formatNoticeDate, formatRelative, t } from './t.ts';
import { zhCN } from './zh-CN.ts';

describe('catalogue', () => {
  it('holds only non-empty strings with well-formed placeholders', () => {
    const schema = z.record(
      z.string().regex(/^[a-z][\w]*(\.[\w]+)+$/),
      z
        .string()
        .min(1)
        .refine((s) => !/\{(?!\w+\})/.test(s)),
    );
    expect(() => schema.parse(zhCN)).not.toThrow();
  });
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(t('live.viewers', { count: 12 })).toBe('12人在看');
    expect(t('video.replies')).toBe('展开{count}条回复');
  });
});

describe('formatting', () => {
  it('formats counts like douyin', () => {
    expect(formatCount(9999)).toBe('9999');
    expect(formatCount(12_345)).toBe('1.2万');
    expect(formatCount(100_000)).toBe('10万');
    expect(formatCount(340_000_000)).toBe('3.4亿');
  });
  it('formats durations and relative dates', () => {
    expect(formatDuration(8_000)).toBe('0:08');
    expect(formatDuration(125_000)).toBe('2:05');
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatRelative(new Date('2026-11-23T11:59:30Z'), now)).toBe('刚刚');
    expect(formatRelative(new Date('2026-11-23T09:00:00Z'), now)).toBe('3小时前');
    expect(formatRelative(new Date('2026-11-21T12:00:00Z'), now)).toBe('2天前');
  });
  it('gives older dates by China’s calendar, so a UTC server and a browser at UTC+8 render the same text', () => {
    // 20:00 UTC is already the next day in China: a server that used its own zone said 11-13 where browsers said 11-14.
    const late = new Date('2026-11-13T20:00:00Z');
    expect(formatRelative(late, new Date('2026-11-25T12:00:00Z'))).toBe('11-14');
    expect(formatRelative(new Date('2025-12-31T16:30:00Z'), new Date('2026-11-25T12:00:00Z'))).toBe('01-01');
    expect(formatRelative(new Date('2025-12-31T15:30:00Z'), new Date('2026-11-25T12:00:00Z'))).toBe('2025-12-31');
  });
});

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
