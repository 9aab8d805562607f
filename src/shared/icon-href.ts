import sprite from './icons.svg?url';

/**
 * The address of an icon of src/shared/icons.ts in the sprite: one hashed file under /_astro/, cached as immutable, that
 * every page and island draws from with <use>.
 */
export function iconHref(name: string): string {
  return `${sprite}#${name}`;
}
