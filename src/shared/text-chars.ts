/**
 * Characters no text field takes: control characters (C0 other than tab, line feed and carriage return, DEL, and the
 * C1 range: PostgreSQL refuses NUL in text, and the rest only hide or garble what people read; U+009B is a terminal's
 * CSI as ESC [ is), and UTF-16 halves without their other half (a lone surrogate is not a character and would be
 * stored as U+FFFD).
 */
const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0d]);

/** Whether `text` holds a character no text field takes (see above). */
export function hasForbiddenChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !ALLOWED_CONTROLS.has(code)) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return !text.isWellFormed();
}
