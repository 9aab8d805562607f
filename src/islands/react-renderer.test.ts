import { describe, expect, it } from 'vitest';
import { Comments } from './Comments.tsx';
import { Feed } from './Feed.tsx';
import { Related } from './Related.tsx';
import { SearchBox } from './SearchBox.tsx';
import { tagReactComponents } from './react-renderer.ts';

// Astro reads this symbol to pick a component's renderer without rendering it first to ask (react-renderer.ts).
const RENDERER = Symbol.for('astro:renderer');
const rendererOf = (value: unknown) => (value as Record<symbol, unknown>)[RENDERER];

describe('react-renderer', () => {
  it('names React as the renderer of the islands pages render, once the module has loaded', () => {
    for (const component of [Comments, Feed, Related, SearchBox]) expect(rendererOf(component)).toBe('@astrojs/react');
  });

  it('tags functions only, and leaves a component already named as it is', () => {
    const named = () => null;
    Object.defineProperty(named, RENDERER, { value: 'astro:jsx' });
    const plain = () => null;
    const exports = { plain, named, text: 'x', table: { a: 1 } };
    tagReactComponents(exports);
    expect(rendererOf(plain)).toBe('@astrojs/react');
    expect(rendererOf(named)).toBe('astro:jsx');
    expect(rendererOf(exports.table)).toBeUndefined();
  });
});
