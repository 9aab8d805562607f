/** The keyboard shortcuts: which key means what, and running them on the current video. */
import type { MessageKey } from '../i18n/zh-CN.ts';
import { requireLogin } from '../stores/auth.ts';
import { loadFollow } from '../stores/follow-loader.ts';
import { markNotInterested, share, toggleCollect, toggleLike, toggleWatchLater } from '../stores/video-actions.ts';
import {
  $host,
  $panel,
  $shortcutsOpen,
  $webFull,
  openShortcuts,
  seekBy,
  stepRate,
  stepVolume,
  toggleAutoNext,
  toggleClear,
  toggleDanmaku,
  toggleFullscreen,
  togglePlay,
  toggleWebFull,
} from '../stores/player.ts';

export type Command =
  | 'like'
  | 'comments'
  | 'danmaku'
  | 'collect'
  | 'shareCode'
  | 'clear'
  | 'autoNext'
  | 'notInterested'
  | 'author'
  | 'follow'
  | 'search'
  | 'close'
  | 'prev'
  | 'next'
  | 'back'
  | 'forward'
  | 'pause'
  | 'webFull'
  | 'full'
  | 'later'
  | 'volUp'
  | 'volDown'
  | 'slower'
  | 'faster'
  | 'help'
  | 'escape'
  | 'related';

/** The rows of the 快捷键 dialog, in order: the key as shown (or its catalogue key) and what it does. */
export const SHORTCUTS: readonly { keys: string | MessageKey; label: MessageKey; note?: MessageKey }[] = [
  { keys: 'Z', label: 'shortcuts.like', note: 'shortcuts.likeNote' },
  { keys: 'X', label: 'shortcuts.comments' },
  { keys: 'B', label: 'shortcuts.danmaku' },
  { keys: 'C', label: 'shortcuts.collect' },
  { keys: 'V', label: 'shortcuts.shareCode' },
  { keys: 'J', label: 'shortcuts.clear' },
  { keys: 'K', label: 'shortcuts.autoNext' },
  { keys: 'R', label: 'shortcuts.notInterested' },
  { keys: 'F', label: 'shortcuts.author' },
  { keys: 'G', label: 'shortcuts.follow' },
  { keys: 'Shift+F', label: 'shortcuts.search' },
  { keys: 'Shift+Q', label: 'shortcuts.close' },
  { keys: '↑/↓', label: 'shortcuts.paging' },
  { keys: '←/→', label: 'shortcuts.seek' },
  { keys: 'shortcuts.space', label: 'shortcuts.pause' },
  { keys: 'Y', label: 'shortcuts.webFull' },
  { keys: 'H', label: 'shortcuts.full' },
  { keys: 'L', label: 'shortcuts.later' },
  { keys: 'Shift+/Shift-', label: 'shortcuts.volume' },
  { keys: '</>', label: 'shortcuts.speed' },
  { keys: '?', label: 'shortcuts.open' },
  { keys: 'Esc', label: 'shortcuts.closeList' },
  { keys: 'N', label: 'shortcuts.related' },
];

const LETTERS: Record<string, Command> = {
  z: 'like',
  x: 'comments',
  b: 'danmaku',
  c: 'collect',
  v: 'shareCode',
  j: 'clear',
  k: 'autoNext',
  r: 'notInterested',
  f: 'author',
  g: 'follow',
  y: 'webFull',
  h: 'full',
  l: 'later',
  n: 'related',
};

const KEYS: Record<string, Command> = {
  ArrowUp: 'prev',
  ArrowDown: 'next',
  ArrowLeft: 'back',
  ArrowRight: 'forward',
  ' ': 'pause',
  '?': 'help',
  '+': 'volUp',
  _: 'volDown',
  '<': 'slower',
  '>': 'faster',
  Escape: 'escape',
};

type KeyLike = Pick<KeyboardEvent, 'key' | 'code' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>;

/** The command a key press asks for, or null; browser and system chords (Ctrl, ⌘, Alt) are never taken. */
export function commandFor(e: KeyLike): Command | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const named = KEYS[e.key];
  if (named) return named;
  // Shift+'=' and Shift+'-' where the layout does not report '+' and '_'.
  if (e.shiftKey && (e.key === '=' || e.code === 'Equal')) return 'volUp';
  if (e.shiftKey && (e.key === '-' || e.code === 'Minus')) return 'volDown';
  // Shift+',' and Shift+'.' where the layout does not report '<' and '>'.
  if (e.shiftKey && e.code === 'Comma') return 'slower';
  if (e.shiftKey && e.code === 'Period') return 'faster';
  // Letters by key (the layout's letter); by physical key when an input method reports something else.
  const letter =
    e.key.length === 1 ? e.key.toLowerCase() : /^Key[A-Z]$/.test(e.code) ? e.code.slice(3).toLowerCase() : '';
  if (e.shiftKey) return letter === 'f' ? 'search' : letter === 'q' ? 'close' : null;
  return LETTERS[letter] ?? null;
}

const TEXT_INPUTS = /^(?:text|search|email|password|tel|url|number|date|datetime-local|month|time|week)$/;

/** Whether keys pressed on `target` belong to it: typing in a field, or a control that uses the key itself. */
export function ownsKey(target: EventTarget | null, key: string): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  if (el.isContentEditable || el.closest('[contenteditable=""],[contenteditable="true"]')) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    if (TEXT_INPUTS.test(type)) return true;
    // A focused slider moves with the arrows (the progress bar excepted: there ←/→ seek 5 s like everywhere else);
    // a checkbox toggles with space.
    return type === 'range' ? key.startsWith('Arrow') && !el.hasAttribute('data-seek') : key === ' ';
  }
  // Space and Enter activate a focused button or link.
  return key === ' ' && (tag === 'BUTTON' || tag === 'A' || el.getAttribute('role') === 'button');
}

/** What only the page knows: its panels and its links. */
export interface ShortcutPage {
  /** X: the comments of the current video. */
  comments: () => void;
  /** N: related videos of the current video. */
  related: () => void;
  /** R, after the server recorded it: take the video away. */
  removed?: () => void;
}

const DOUBLE_SPACE_MS = 320;
let lastSpace = 0;

/** Shift+Q: closes what is open on top of the video; with nothing open, leaves the page. */
export function closeTop(): void {
  if ($panel.get()) return $panel.set(null);
  if ($webFull.get()) return $webFull.set(false);
  if (document.fullscreenElement) return void document.exitFullscreen().catch(() => {});
  // Scripts may close only windows they opened (search results open in a new window): then the tab goes.
  window.close();
  if (location.pathname === '/') return;
  if (history.length > 1) history.back();
  else location.assign('/');
}

/** The header's search box (Shift+F). */
const SEARCH_INPUT_ID = 'header-search-input';

function focusSearch(): void {
  const box = document.querySelector<HTMLInputElement>(`#${SEARCH_INPUT_ID}, [role="searchbox"], input[type="search"]`);
  box?.focus();
  box?.select();
}

/** Runs `command` on the current video. */
export function run(command: Command, page: ShortcutPage, now = performance.now()): void {
  const host = $host.get();
  const item = host?.item;
  switch (command) {
    case 'pause': {
      togglePlay();
      const double = now - lastSpace < DOUBLE_SPACE_MS;
      lastSpace = double ? 0 : now;
      if (double && item) void toggleLike(item, true).then((ok) => ok && host?.burst?.());
      return;
    }
    case 'like':
      if (item) void toggleLike(item).then((ok) => ok && host?.burst?.());
      return;
    case 'collect':
      if (item) void toggleCollect(item);
      return;
    case 'later':
      if (item) void toggleWatchLater(item);
      return;
    case 'shareCode':
      if (item) void share(item, 'code');
      return;
    case 'notInterested':
      if (item) void markNotInterested(item).then((ok) => ok && page.removed?.());
      return;
    case 'follow':
      if (item && requireLogin()) void loadFollow().then((m) => m.toggleFollow(item.author.secUid, item.author.follow));
      return;
    case 'author':
      if (item) location.assign(`/user/${item.author.secUid}`);
      return;
    case 'comments':
      return page.comments();
    case 'related':
      return page.related();
    case 'danmaku':
      return toggleDanmaku();
    case 'clear':
      return toggleClear();
    case 'autoNext':
      return toggleAutoNext(true);
    case 'webFull':
      return toggleWebFull();
    case 'full':
      return toggleFullscreen();
    case 'prev':
    case 'next':
      return host?.page?.(command === 'next' ? 1 : -1);
    case 'back':
    case 'forward':
      return seekBy(command === 'forward' ? 5 : -5);
    case 'volUp':
    case 'volDown':
      return stepVolume(command === 'volUp' ? 1 : -1);
    case 'slower':
    case 'faster':
      return stepRate(command === 'faster' ? 1 : -1);
    case 'search':
      return focusSearch();
    case 'close':
      return closeTop();
    case 'help':
      return openShortcuts();
    case 'escape':
      if ($panel.get()) $panel.set(null);
      else if ($webFull.get()) $webFull.set(false);
      return;
  }
}

/** Where the player's inline script leaves a key pressed before the island hydrated (src/components/VideoPlayer.astro). */
export const PENDING_KEY = 'syPendingKey';

/**
 * Set on `window` while an island listens for the shortcuts. Until then the player's inline script keeps recording
 * keys: the island's `ssr` mark goes before React has hydrated and bound its listeners, and a key in that gap was lost.
 */
export const SHORTCUTS_BOUND = 'syShortcutsBound';

/** The key pressed before hydration, once. */
export function takePendingKey(): KeyLike | null {
  const w = globalThis as unknown as Record<string, KeyLike | undefined>;
  const key = w[PENDING_KEY] ?? null;
  delete w[PENDING_KEY];
  return key;
}

/** Listens for the shortcuts on this page, after running a key that woke the island; returns the function that stops listening. */
export function bindShortcuts(page: ShortcutPage): () => void {
  const w = globalThis as unknown as Record<string, boolean | undefined>;
  w[SHORTCUTS_BOUND] = true;
  const pending = takePendingKey();
  const early = pending && commandFor(pending);
  // After this commit's effects, so the current video is known.
  const replay = early ? setTimeout(() => run(early, page), 0) : undefined;
  const onKey = (e: KeyboardEvent) => {
    // Esc leaves the header's search box (Shift+F put the focus there), even before its island has woken.
    if (e.key === 'Escape' && (e.target as Element | null)?.id === SEARCH_INPUT_ID && !e.isComposing) {
      (e.target as HTMLElement).blur();
      return;
    }
    // Held keys repeat only where repeating means something (seeking).
    if (
      e.defaultPrevented ||
      (e.repeat && !e.key.startsWith('ArrowL') && !e.key.startsWith('ArrowR')) ||
      ownsKey(e.target, e.key)
    )
      return;
    // The dialog is modal: Esc belongs to it, and nothing else should act behind it.
    if ($shortcutsOpen.get()) return;
    const command = commandFor(e);
    if (!command || (command === 'escape' && !$panel.get() && !$webFull.get())) return;
    e.preventDefault();
    run(command, page, e.timeStamp || performance.now());
  };
  window.addEventListener('keydown', onKey);
  return () => {
    delete w[SHORTCUTS_BOUND];
    clearTimeout(replay);
    window.removeEventListener('keydown', onKey);
  };
}
