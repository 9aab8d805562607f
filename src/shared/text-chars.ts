/**
 * Which characters a text field takes: the one home of the rule, for the doors and for every service that cleans or
 * checks a field. Control characters are Unicode's Cc: C0 (U+0000–001F), DEL and C1 (U+007F–009F). PostgreSQL refuses
 * NUL in text, and the rest only hide or garble what people read (U+009B is a terminal's CSI as ESC [ is).
 */

/** Controls a multi-line text keeps at the door: tab, line feed and carriage return. */
const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0d]);
/** A control character, or a line or paragraph separator (U+2028, U+2029), which breaks a line as '\n' does. */
const LINE_CONTROL = /[\p{Cc}\u2028\u2029]/u;
const LINE_CONTROL_BUT_NEWLINE = /(?!\n)[\p{Cc}\u2028\u2029]/u;
const CONTROLS = /\p{Cc}/gu;

/**
 * Whether `text` holds a character no text field takes, checked at the door for every field: a control character
 * other than tab, line feed and carriage return, or a UTF-16 half without its other half (a lone surrogate is not a
 * character and would be stored as U+FFFD).
 */
export function hasForbiddenChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !ALLOWED_CONTROLS.has(code)) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return !text.isWellFormed();
}

/**
 * Whether `text` holds a control character or a line or paragraph separator: what a one-line field (a nickname) may
 * not hold; with `newlines`, '\n' is let through (a bio).
 */
export function hasControlChar(text: string, { newlines = false } = {}): boolean {
  return (newlines ? LINE_CONTROL_BUT_NEWLINE : LINE_CONTROL).test(text);
}

/** `text` with every control character replaced by `by` (a work's title takes ' ', a file name ''). */
export function replaceControlChars(text: string, by: string): string {
  return text.replace(CONTROLS, by);
}
