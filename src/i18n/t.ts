import { formatCountWith } from '../shared/format-count.ts';
import { calendarDate, sameDay, wallClock } from '../shared/wall-clock.ts';
import { zhCN, type MessageKey } from './zh-CN.ts';

/** Looks a string up in the catalogue and fills its {name} placeholders. */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text: string = zhCN[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Formats a count the way douyin.com does: 9999, 1.2万, 3.4亿 (units from the catalogue). */
export function formatCount(n: number): string {
  return formatCountWith(n, [t('count.tenThousand'), t('count.hundredMillion')]);
}

const ipLines = new Map<string, string>();

/** Douyin's IP属地 line of a profile ('IP属地：广东'); '' while the province is unknown. */
export function ipLocation(province: string): string {
  if (!province) return '';
  let line = ipLines.get(province);
  // Every user object of a list carries one, from a few dozen provinces: made once each.
  if (line === undefined && ipLines.size < 100) ipLines.set(province, (line = t('user.ipLocation', { province })));
  return line ?? t('user.ipLocation', { province });
}

/** Formats a video duration in ms as m:ss. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** 刚刚, N分钟前 or N小时前 for a time `seconds` ago. */
function ago(seconds: number): string {
  if (seconds < 60) return t('time.justNow');
  if (seconds < 3600) return t('time.minutesAgo', { n: Math.floor(seconds / 60) });
  return t('time.hoursAgo', { n: Math.floor(seconds / 3600) });
}

/** Relative date as shown under cards: 刚刚, N分钟前, N小时前, N天前, else MM-DD or YYYY-MM-DD (China's calendar). */
export function formatRelative(date: Date, now = new Date()): string {
  const diff = (now.getTime() - date.getTime()) / 1000;
  if (diff < 86_400) return ago(diff);
  if (diff < 7 * 86_400) return t('time.daysAgo', { n: Math.floor(diff / 86_400) });
  return calendarDate(wallClock(date), wallClock(now));
}

/** Date of a notification or a chat: 刚刚, N分钟前 and N小时前 today, MM-DD this year, YYYY-MM-DD before (China's calendar). */
export function formatNoticeDate(date: Date, now = new Date()): string {
  const diff = (now.getTime() - date.getTime()) / 1000;
  const [d, n] = [wallClock(date), wallClock(now)];
  return diff < 60 || sameDay(d, n) ? ago(diff) : calendarDate(d, n);
}

/** A message's time in the chat: HH:mm today, MM-DD HH:mm before. */
export function formatMessageTime(date: Date, now = new Date()): string {
  const [d, n] = [wallClock(date), wallClock(now)];
  const hm = `${d.hour}:${d.minute}`;
  return sameDay(d, n) ? hm : `${calendarDate(d, n)} ${hm}`;
}
