/**
 * The viewer's own marks on a page every viewer shares (GET /api/user/marks): who they are, what of the page's videos
 * they liked, collected or keep for later, whom of its people they follow, their unread counts. Null until they arrive
 * (and for visitors); the islands show them over what the shared page was rendered with, and what the viewer does on
 * the page afterwards (video-stats.ts, follow.ts) stays above both.
 */
import { atom } from 'nanostores';
import type { FollowStatus } from '../shared/api-shapes.ts';
import { NO_MUTES, type MuteSet } from '../shared/mutes.ts';
import { $mutes } from './mutes.ts';

export interface MarksViewer {
  uid: string;
  secUid: string;
  nickname: string;
  avatar: string;
}

/** The `data` of /api/user/marks. */
export interface MarksData {
  viewer: MarksViewer | null;
  liked: string[];
  collected: string[];
  later: string[];
  following: Record<string, 1 | 2>;
  unread: { notice: number; message: number };
  resume: { episode: number; progressMs: number } | null;
  /** What the viewer muted (absent from an older server's answer). */
  mutes?: MuteSet;
}

export interface PageMarks {
  viewer: MarksViewer;
  liked: ReadonlySet<string>;
  collected: ReadonlySet<string>;
  later: ReadonlySet<string>;
  following: Readonly<Record<string, 1 | 2>>;
  unread: { notice: number; message: number };
  resume: { episode: number; progressMs: number } | null;
}

export const $marks = atom<PageMarks | null>(null);

/** Takes an answer of /api/user/marks in; a null viewer (no valid session) leaves the marks empty. */
export function setMarks(data: MarksData): PageMarks | null {
  const marks = data.viewer && {
    viewer: data.viewer,
    liked: new Set(data.liked),
    collected: new Set(data.collected),
    later: new Set(data.later),
    following: data.following,
    unread: data.unread,
    resume: data.resume ?? null,
  };
  $marks.set(marks);
  $mutes.set(data.viewer ? (data.mutes ?? NO_MUTES) : null);
  return marks;
}

/** The viewer's follow status towards `secUid` by the marks, or `fallback` (what the page was rendered with). */
export function markedFollow(marks: PageMarks | null, secUid: string, fallback: FollowStatus): FollowStatus {
  return marks ? (marks.following[secUid] ?? 0) : fallback;
}
