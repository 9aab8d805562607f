/**
 * Captions (字幕) as the studio, the player and the server all see them: the limits a caption file must meet, the
 * shape of a cue, and the studio's caption API. Browser-safe: no imports.
 */

/** Caption files accepted, by extension (the content is what is checked: WebVTT or SubRip text). */
export const CAPTION_EXTENSIONS = ['vtt', 'srt'] as const;
/** `accept` of the caption file picker. */
export const CAPTION_ACCEPT = '.vtt,.srt,text/vtt,application/x-subrip';
/** Largest caption file, in bytes. */
export const CAPTION_MAX_BYTES = 512 * 1024;
/** Most cues one work may carry (a 15-minute video with a cue every half second). */
export const CAPTION_MAX_CUES = 2000;
/** Longest cue text, in characters, after markup is stripped. */
export const CUE_TEXT_MAX = 200;

/** One cue: start and end in milliseconds into the video, plain text (lines joined by a newline). */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** A work's captions as the studio shows them. */
export interface CaptionTrack {
  workId: number;
  /** 'upload': the author's file or edits; 'auto': written by the caption engine. */
  source: 'upload' | 'auto';
  lang: string;
  cues: Cue[];
  /** The WebVTT file the player loads. */
  url: string;
  /** Unix milliseconds of the last change. */
  updateTime: number;
}

/** The studio's caption API under /api (Family B envelope). */
export const CAPTION_API = {
  /** GET ?workId= → CaptionTrack | null. */
  get: '/api/studio/captions',
  /** POST multipart {workId, file} → CaptionTrack. */
  upload: '/api/studio/captions/upload',
  /** POST {workId, index, text} → CaptionTrack. */
  editCue: '/api/studio/captions/cue',
  /** POST {workId} → {workId}. */
  remove: '/api/studio/captions/delete',
} as const;

/** Milliseconds as the studio lists a cue's time: m:ss.s. */
export function cueClock(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const m = Math.floor(tenths / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${m}:${s}`;
}
