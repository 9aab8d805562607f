/** How the studio writes spans of time and a work's date. */
import { t } from '../../i18n/t.ts';
import { wallClock } from '../../shared/wall-clock.ts';

/** 45秒, 15分钟, 2分5秒. */
export function formatSpan(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('studio.duration.seconds', { n: s });
  if (s % 60 === 0) return t('studio.duration.minutes', { n: s / 60 });
  return t('studio.duration.minSec', { m: Math.floor(s / 60), s: s % 60 });
}

/** 0:03.2: a position in the video, to a tenth of a second. */
export function formatPosition(seconds: number): string {
  const tenths = Math.max(0, Math.round(seconds * 10));
  const m = Math.floor(tenths / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${m}:${s}`;
}

/** 2026-11-24 22:08 in China's time. */
export function formatStamp(ms: number): string {
  const c = wallClock(new Date(ms));
  return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}`;
}
