/** Player state shared by the feed, the video page and the shortcuts: preferences, screen modes, the current video. */
import { atom, map } from 'nanostores';
import type { VideoItem } from '../shared/video-item.ts';

/** Playback speeds the 倍速 menu and the < and > keys offer, as douyin.com's player does. */
export const RATES = [0.75, 1, 1.25, 1.5, 2] as const;

export interface PlayerPrefs {
  /** 0..1. */
  volume: number;
  /** 倍速 of videos (never of a live room). */
  rate: number;
  /** 连播: at the end of a video the feed (or a 合集) moves to the next one instead of looping. */
  autoNext: boolean;
  /** 弹幕 shown. */
  danmaku: boolean;
  /** 字幕 shown on works that have captions. */
  captions: boolean;
}

/** localStorage key of the remembered preferences. */
export const PREFS_KEY = 'sy.player';
// 弹幕 start off: the layer and its list load only for viewers who turn them on (B), keeping the first load small.
// 连播 starts on, as in douyin.com's feed. 字幕 start off as 弹幕 do; a viewer's choice is remembered, and a work without
// captions shows no CC button at all.
const DEFAULTS: PlayerPrefs = { volume: 0.7, rate: 1, autoNext: true, danmaku: false, captions: false };

/** Player preferences; defaults until `restorePrefs()` reads the saved ones (after hydration, so server and client render alike). */
export const $prefs = map<PlayerPrefs>({ ...DEFAULTS });

/** Sound off. Every page starts muted: browsers allow autoplay only without sound until the user acts. */
export const $muted = atom(true);
/** 清屏: overlays hidden, only the video and its progress left. */
export const $clear = atom(false);
/** 网页全屏: the player covers the page (sidebar and header hidden). */
export const $webFull = atom(false);
/** The feed's side panel. */
export const $panel = atom<'comments' | null>(null);
/** The 快捷键 dialog is open. */
export const $shortcutsOpen = atom(false);

/** What the shortcuts act on: the video in front of the viewer and what its host can do. */
export interface PlayerHost {
  /** The video the actions act on; absent for a live stream, where only the playback keys apply. */
  item?: VideoItem;
  video: () => HTMLVideoElement | null;
  /** The element that goes fullscreen (H). */
  root: () => HTMLElement | null;
  /** Feed paging (↑/↓); absent on a single-video page. */
  page?: (step: 1 | -1) => void;
  /** Shows the like burst (Z and double space). */
  burst?: () => void;
}

/** The current video's host, set by the island that shows it. */
export const $host = atom<PlayerHost | null>(null);

/** What a change of 倍速 or 连播 says over the video for a moment (the player shows it); null when nothing. */
export interface PlayerNote {
  kind: 'rate' | 'autoNext';
  /** The rate set, or 1/0 for 连播 on/off. */
  value: number;
  /** Tells two equal notes in a row apart, so the second shows again. */
  at: number;
}

export const $note = atom<PlayerNote | null>(null);
/** How long a note stays. */
export const NOTE_MS = 2000;
let noteTimer: ReturnType<typeof setTimeout> | undefined;

function showNote(kind: PlayerNote['kind'], value: number): void {
  clearTimeout(noteTimer);
  $note.set({ kind, value, at: Date.now() });
  noteTimer = setTimeout(() => $note.set(null), NOTE_MS);
}

/** Clamps and rounds a volume to 0..1 in steps of 0.01. */
export function clampVolume(v: number): number {
  return Math.round(Math.min(1, Math.max(0, Number.isFinite(v) ? v : DEFAULTS.volume)) * 100) / 100;
}

/** A speed from RATES, else 1. */
export function validRate(r: unknown): number {
  return (RATES as readonly number[]).includes(r as number) ? (r as number) : 1;
}

/** Parses saved preferences; anything malformed falls back to the default of that field. */
export function parsePrefs(raw: string | null): PlayerPrefs {
  let saved: Partial<Record<keyof PlayerPrefs, unknown>> = {};
  try {
    const value: unknown = JSON.parse(raw ?? '{}');
    if (value && typeof value === 'object') saved = value;
  } catch {
    // A corrupt entry is replaced on the next change.
  }
  return {
    volume: typeof saved.volume === 'number' ? clampVolume(saved.volume) : DEFAULTS.volume,
    rate: validRate(saved.rate),
    autoNext: typeof saved.autoNext === 'boolean' ? saved.autoNext : DEFAULTS.autoNext,
    danmaku: typeof saved.danmaku === 'boolean' ? saved.danmaku : DEFAULTS.danmaku,
    captions: typeof saved.captions === 'boolean' ? saved.captions : DEFAULTS.captions,
  };
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

let restored = false;

/** Reads the saved preferences once per page and saves every later change. */
export function restorePrefs(): void {
  if (restored) return;
  restored = true;
  const saved = parsePrefs(storage()?.getItem(PREFS_KEY) ?? null);
  // Called from the players' mount effects, where a new value re-renders every player at once, in that same task: a
  // viewer with nothing saved (or the defaults) keeps the value they were rendered with.
  const now = $prefs.get();
  if ((Object.keys(saved) as (keyof PlayerPrefs)[]).some((key) => saved[key] !== now[key])) $prefs.set(saved);
  $prefs.listen((prefs) => {
    try {
      storage()?.setItem(PREFS_KEY, JSON.stringify(prefs));
    } catch {
      // Full or blocked storage: the preference lasts for this page only.
    }
  });
}

/** Sets the volume (0..1); a volume above 0 also unmutes. */
export function setVolume(v: number): void {
  const volume = clampVolume(v);
  $prefs.setKey('volume', volume);
  $muted.set(volume === 0);
}

/** Shift+'+' / Shift+'-': one step of 10 %. */
export function stepVolume(step: 1 | -1): void {
  const base = $muted.get() ? 0 : $prefs.get().volume;
  setVolume(base + step * 0.1);
}

/** Mutes or unmutes; unmuting at volume 0 restores a default level. */
export function toggleMute(): void {
  const muted = !$muted.get();
  if (!muted && $prefs.get().volume === 0) $prefs.setKey('volume', DEFAULTS.volume);
  $muted.set(muted);
}

/** Sets the 倍速 (one of RATES, else 1) and says so over the video. */
export function setRate(rate: number): void {
  const next = validRate(rate);
  $prefs.setKey('rate', next);
  showNote('rate', next);
}

/** The < and > keys: one step down or up RATES, staying at the ends; only for a video, never a live room. */
export function stepRate(step: 1 | -1): void {
  if (!$host.get()?.item) return;
  const at = RATES.indexOf($prefs.get().rate as (typeof RATES)[number]);
  setRate(RATES[Math.min(Math.max((at < 0 ? 1 : at) + step, 0), RATES.length - 1)]!);
}

/** K and the 连播 switch; K's change is said over the video. */
export function toggleAutoNext(announce = false): void {
  const on = !$prefs.get().autoNext;
  $prefs.setKey('autoNext', on);
  if (announce) showNote('autoNext', on ? 1 : 0);
}

export function toggleDanmaku(): void {
  $prefs.setKey('danmaku', !$prefs.get().danmaku);
}

export function toggleCaptions(): void {
  $prefs.setKey('captions', !$prefs.get().captions);
}

export function toggleClear(): void {
  $clear.set(!$clear.get());
}

export function toggleWebFull(): void {
  $webFull.set(!$webFull.get());
}

/** H: real fullscreen of the current player, or leaves it. */
export function toggleFullscreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else
    void $host
      .get()
      ?.root()
      ?.requestFullscreen?.()
      .catch(() => {});
}

/** Opens the 快捷键 dialog (the sidebar's settings popover calls this too). */
export function openShortcuts(): void {
  $shortcutsOpen.set(true);
}

export function closeShortcuts(): void {
  $shortcutsOpen.set(false);
}

/** Seeks the current video by `seconds`, within its length. */
export function seekBy(seconds: number): void {
  const v = $host.get()?.video();
  if (!v) return;
  const end = Number.isFinite(v.duration) ? v.duration : v.currentTime + seconds;
  v.currentTime = Math.min(Math.max(0, v.currentTime + seconds), Math.max(0, end - 0.05));
}

/** Space: plays or pauses the current video. */
export function togglePlay(): void {
  const v = $host.get()?.video();
  if (!v) return;
  if (v.paused) void v.play().catch(() => {});
  else v.pause();
}
