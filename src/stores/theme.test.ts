import { describe, expect, it } from 'vitest';
import { $theme, setTheme, toggleTheme } from './theme.ts';

describe('$theme', () => {
  it('accepts only light and dark', () => {
    setTheme('dark');
    expect($theme.get()).toBe('dark');
    setTheme('blue');
    setTheme(undefined);
    expect($theme.get()).toBe('dark');
    toggleTheme();
    expect($theme.get()).toBe('light');
  });
});
