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
    // Icons (src/components/Icon.astro): 1.2em square like the text around them, placed like text; sized here rather
    // than by width/height attributes, which every icon of every page would repeat.
    icon: 'inline-block align-middle w-[1.2em] h-[1.2em]',
    'focus-ring': 'outline-none focus-visible:(outline-2 outline-solid outline-accent outline-offset-2)',
    'btn-accent':
      'focus-ring inline-flex items-center justify-center gap-1 rounded-md bg-accent-fill px-4 h-8 text-sm font-medium text-white hover:brightness-110 disabled:(opacity-50 cursor-not-allowed)',
    'btn-ghost':
      'focus-ring inline-flex items-center justify-center gap-1 rounded-md px-3 h-8 text-sm text-secondary hover:(bg-hover text-primary)',
    // The shell's repeated controls: sidebar entries (Sidebar.astro, SettingsMenu.astro), header entries and their
    // popovers (chrome/HeaderEntry.astro); every page carries them.
    'side-link': 'focus-ring flex items-center gap-3 h-10 px-3 rounded-lg',
    'side-idle': 'text-secondary hover:(bg-hover text-primary)',
    'entry-btn':
      'focus-ring relative flex flex-col items-center justify-center w-12 h-12 rounded-lg text-secondary hover:text-primary aria-expanded:text-primary',
    'pop-box': 'm-0 rounded-xl bg-surface text-primary shadow-xl border border-line outline-none',
    // The phone's strip of sections and its bottom tab bar (components/phone/).
    'strip-link': 'focus-ring flex h-11 items-center whitespace-nowrap rounded-lg px-2.5 text-[15px]',
    // A row of the 热点榜 (HotRow in InfiniteGrid.tsx): the page repeats it fifty times.
    'hot-row': 'focus-ring flex items-center gap-4 rounded-xl p-2 hover:bg-hover',
    'hot-rank': 'w-8 shrink-0 text-center text-lg font-bold',
    'hot-poster': 'relative h-24 w-18 shrink-0 overflow-hidden rounded-lg bg-raised',
    'hot-img': 'h-24 w-18 object-cover',
    'hot-dur': 'absolute bottom-1 right-1 text-[10px] text-white drop-shadow',
    'hot-title': 'line-clamp-2 text-sm text-primary',
    'hot-by': 'mt-1 block text-xs text-muted',
    'hot-heat': 'shrink-0 text-sm text-secondary',
    'tab-link': 'focus-ring flex flex-1 items-center justify-center min-w-11 h-full text-[15px] whitespace-nowrap',
    // A video card (VideoCard.astro and its React twin VideoCardView.tsx): a grid page repeats it two dozen times.
    'card-poster': 'focus-ring relative block overflow-hidden rounded-xl bg-raised aspect-[3/4]',
    'card-img': 'absolute inset-0 w-full h-full object-cover transition-transform duration-300 group-hover:scale-105',
    'card-over': 'absolute bottom-2 text-xs text-white drop-shadow',
    'card-title': 'focus-ring line-clamp-2 text-sm leading-5 text-primary hover:text-accent-text lt-tablet:min-h-11',
    'card-author': 'focus-ring truncate leading-6 lt-tablet:leading-11 hover:text-primary',
    // Two columns on a phone, as its apps show videos.
    // The player's box on the video, live and theatre pages: on a phone it spans the width and stands taller.
    'player-box':
      'relative overflow-hidden rounded-2xl bg-black aspect-video lt-tablet:-mx-4 lt-tablet:aspect-[3/4] lt-tablet:rounded-none',
    'card-grid':
      'grid gap-4 grid-cols-[repeat(auto-fill,minmax(200px,1fr))] lt-tablet:grid-cols-2 lt-tablet:gap-x-2 lt-tablet:gap-y-3',
    'page-pad': 'px-4 md:px-6 pb-10',
    'section-title': 'text-lg font-semibold text-primary',
    // A thumb-sized target on a phone (44 px, as the platforms' guidelines ask); no change at pointer widths.
    'tap-target': 'lt-tablet:(inline-flex min-h-11 min-w-11 items-center justify-center)',
  },
});
