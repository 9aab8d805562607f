/**
 * Characters no text field takes: C0 controls other than tab, line feed and carriage return (PostgreSQL refuses NUL
 * in text, and the rest only hide or garble what people read), and UTF-16 halves without their other half (a lone
 * surrogate is not a character and would be stored as U+FFFD).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Whether `text` holds a character no text field takes (see above). */
export function hasForbiddenChar(text: string): boolean {
  return CONTROL.test(text) || !text.isWellFormed();
}
