/**
 * The rules of 编辑资料 that the dialog and the server both apply: field lengths, the gender choices, what a birthday
 * may be, and the picture limits. Each check answers the catalogue message of its refusal, or null when the value passes.
 */
import type { MessageKey } from '../i18n/zh-CN.ts';
import { collapseBlankLines } from './blank-lines.ts';
import { wallClock } from './wall-clock.ts';

/** Why a value is refused: the catalogue message and its placeholders. */
export interface Problem {
  key: MessageKey;
  vars?: Record<string, number>;
}

/** Longest nickname and bio, in characters (code points, so an emoji counts once). */
export const NICKNAME_MAX = 20;
export const SIGNATURE_MAX = 250;
/** Lines a bio may have; more would push the profile's counts off the first screen. */
export const SIGNATURE_MAX_LINES = 10;

/** Douyin's gender codes: 0 not shown, 1 male, 2 female. */
export const GENDERS = [0, 1, 2] as const;
export type Gender = (typeof GENDERS)[number];

/** The earliest birthday accepted. */
export const BIRTHDAY_MIN = '1900-01-01';
const BIRTHDAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Largest avatar and banner uploads, in bytes, and the largest side of either picture, in pixels. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_SIDE = 8192;
/** Sizes stored: a square avatar, and a banner at the profile header's 3:1. */
export const AVATAR_SIZE = 512;
export const COVER_WIDTH = 1500;
export const COVER_HEIGHT = 500;
/** Picture formats accepted (by content on the server; the file picker's filter only helps). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';

// C0 and C1 controls (tabs and newlines included) and the line and paragraph separators; a bio may keep '\n'.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_BUT_NEWLINE = /(?!\n)[\p{Cc}\u2028\u2029]/u;

const length = (s: string) => [...s].length;

/** A nickname as stored: outer whitespace trimmed. */
export function cleanNickname(raw: string): string {
  return raw.trim();
}

/** Why a (cleaned) nickname is refused, or null. */
export function nicknameProblem(nickname: string): Problem | null {
  if (!nickname) return { key: 'error.nicknameEmpty' };
  if (CONTROL.test(nickname)) return { key: 'error.nicknameInvalid' };
  if (length(nickname) > NICKNAME_MAX) return { key: 'error.nicknameTooLong', vars: { max: NICKNAME_MAX } };
  return null;
}

/** A bio as stored: blank lines collapsed (blank-lines.ts), outer whitespace trimmed. */
export function cleanSignature(raw: string): string {
  return collapseBlankLines(raw).trim();
}

/** Why a (cleaned) bio is refused, or null; an empty bio is allowed. */
export function signatureProblem(signature: string): Problem | null {
  if (CONTROL_BUT_NEWLINE.test(signature)) return { key: 'error.signatureInvalid' };
  if (length(signature) > SIGNATURE_MAX) return { key: 'error.signatureTooLong', vars: { max: SIGNATURE_MAX } };
  if (signature.split('\n').length > SIGNATURE_MAX_LINES)
    return { key: 'error.signatureTooManyLines', vars: { max: SIGNATURE_MAX_LINES } };
  return null;
}

/** Why a birthday ('YYYY-MM-DD', or '' for none) is refused on `today` ('YYYY-MM-DD' in China), or null. */
export function birthdayProblem(birthday: string, today: string): Problem | null {
  if (birthday === '') return null;
  const invalid: Problem = { key: 'error.birthdayInvalid' };
  const m = BIRTHDAY.exec(birthday);
  if (!m) return invalid;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // 2023-02-30 rolls over into March: not a real day.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return invalid;
  if (birthday < BIRTHDAY_MIN) return invalid;
  if (birthday > today) return { key: 'error.birthdayFuture' };
  return null;
}

/** Whole years from `birthday` to `today` (both 'YYYY-MM-DD'). */
export function ageOn(birthday: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthday.slice(0, 4));
  return today.slice(5) < birthday.slice(5) ? years - 1 : years;
}

/** Today's date in China, 'YYYY-MM-DD' (birthdays and ages follow China's calendar on every machine). */
export function chinaToday(now = new Date()): string {
  const c = wallClock(now);
  return `${c.year}-${c.month}-${c.day}`;
}
