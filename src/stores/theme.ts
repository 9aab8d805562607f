import { persistentAtom } from '@nanostores/persistent';

export type Theme = 'light' | 'dark';

/** The colour theme, persisted in localStorage under `theme`. */
export const $theme = persistentAtom<Theme>('theme', 'light');

/** Sets the theme; any value other than light or dark is ignored. */
export function setTheme(next: unknown): void {
  if (next === 'light' || next === 'dark') $theme.set(next);
}

/** Switches between light and dark. */
export function toggleTheme(): void {
  setTheme($theme.get() === 'dark' ? 'light' : 'dark');
}

/** Mirrors the theme onto <html dark="true"> (the head script does the same before first paint). */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'dark') root.setAttribute('dark', 'true');
  else root.removeAttribute('dark');
}
