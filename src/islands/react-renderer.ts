/**
 * Names Astro's React renderer on every component of src/islands, once at start-up. Astro renders a framework component
 * nobody named by first asking each renderer whether it is theirs, and React's answer is a render of its own (the
 * component called inside a throwaway React render to a stream): every island and every React row a page renders
 * statically (the 热榜's rows) was rendered twice. The name goes where Astro's own JSX integrations put it
 * (`__astro_tag_component__`: the `astro:renderer` symbol), and a tagged component skips the question.
 */
const RENDERER = Symbol.for('astro:renderer');
const REACT = '@astrojs/react';

const islands = import.meta.glob<Record<string, unknown>>('./**/*.tsx', { eager: true });

/** Tags the functions among `exports` (components, and helpers the tag does not concern) with the React renderer. */
export function tagReactComponents(exports: Record<string, unknown>): void {
  for (const value of Object.values(exports)) {
    if (typeof value !== 'function' || Object.hasOwn(value, RENDERER)) continue;
    Object.defineProperty(value, RENDERER, { value: REACT, enumerable: false, writable: false });
  }
}

for (const exports of Object.values(islands)) tagReactComponents(exports);
