import { calendarDate, wallClock } from '../shared/wall-clock.ts';
import { zhCN, type MessageKey } from './zh-CN.ts';

/** Looks a string up in the catalogue and fills its {name} placeholders. */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text: string = zhCN[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Formats a count the way douyin.com does: 9999, 1.2万, 3.4亿. */
export function formatCount(n: number): string {
  if (n < 10_000) return String(n);
  if (n < 100_000_000) return `${trim(n / 10_000)}万`;
  return `${trim(n / 100_000_000)}亿`;
}

function trim(x: number): string {
  return (Math.floor(x * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/** Formats a video duration in ms as m:ss. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Relative date as shown under cards: 刚刚, N分钟前, N小时前, N天前, else MM-DD or YYYY-MM-DD. */
export function formatRelative(date: Date, now = new Date()): string {
  const diff = (now.getTime() - date.getTime()) / 1000;
  if (diff < 60) return '刚刚';
  if (diff < 3600) return `${Math.floor(diff / 60)}分钟前`;
  if (diff < 86_400) return `${Math.floor(diff / 3600)}小时前`;
  if (diff < 7 * 86_400) return `${Math.floor(diff / 86_400)}天前`;
  return calendarDate(wallClock(date), wallClock(now));
}
