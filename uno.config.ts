import { defineConfig, presetWind3, transformerVariantGroup } from 'unocss';

/** Semantic tokens backed by the CSS variables of src/styles/theme.css, so one class serves both themes. */
export default defineConfig({
  presets: [presetWind3({ dark: { dark: '[dark="true"]', light: ':root' } })],
  transformers: [transformerVariantGroup()],
  // Class names also live in .ts modules (src/client/live-room.ts), which the default pipeline skips.
  content: { pipeline: { include: [/\.(astro|[jt]sx?|mdx?|html)($|\?)/] } },
  // Server modules are scanned too: ffmpeg's stream labels ('[0:v]') read as arbitrary properties and broke the CSS.
  blocklist: [/^\[\d[^\]]*:/],
  theme: {
    colors: {
      accent: 'var(--c-accent)',
      // AA-contrast variants of the accent (theme.css): fills under white text, and small accent-coloured text.
      'accent-fill': 'var(--c-accent-fill)',
      'accent-text': 'var(--c-accent-text)',
      page: 'var(--c-page)',
      surface: 'var(--c-surface)',
      raised: 'var(--c-raised)',
      hover: 'var(--c-hover)',
      line: 'var(--c-line)',
      primary: 'var(--c-text)',
      secondary: 'var(--c-text-2)',
      muted: 'var(--c-text-3)',
    },
    // tablet is the phone layout's edge: below it (lt-tablet:) the tab bar replaces the sidebar (src/styles/theme.css).
    breakpoints: { sm: '640px', tablet: '768px', md: '900px', lg: '1240px', xl: '1600px' },
  },
  shortcuts: {
    // Inline SVG icons (src/components/Icon.astro): sized by their width/height (1.2em), placed like text.
    icon: 'inline-block align-middle',
    'focus-ring': 'outline-none focus-visible:(outline-2 outline-solid outline-accent outline-offset-2)',
    'btn-accent':
      'focus-ring inline-flex items-center justify-center gap-1 rounded-md bg-accent-fill px-4 h-8 text-sm font-medium text-white hover:brightness-110 disabled:(opacity-50 cursor-not-allowed)',
    'btn-ghost':
      'focus-ring inline-flex items-center justify-center gap-1 rounded-md px-3 h-8 text-sm text-secondary hover:(bg-hover text-primary)',
    // Two columns on a phone, as its apps show videos.
    // The player's box on the video, live and theatre pages: on a phone it spans the width and stands taller.
    'player-box':
      'relative overflow-hidden rounded-2xl bg-black aspect-video lt-tablet:-mx-4 lt-tablet:aspect-[3/4] lt-tablet:rounded-none',
    'card-grid': 'grid gap-4 grid-cols-[repeat(auto-fill,minmax(200px,1fr))] lt-tablet:grid-cols-2 lt-tablet:gap-x-2 lt-tablet:gap-y-3',
    'page-pad': 'px-4 md:px-6 pb-10',
    'section-title': 'text-lg font-semibold text-primary',
    // A thumb-sized target on a phone (44 px, as the platforms' guidelines ask); no change at pointer widths.
    'tap-target': 'lt-tablet:(inline-flex min-h-11 min-w-11 items-center justify-center)',
  },
});
