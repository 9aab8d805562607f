/** The viewer's live counts and marks on each video (likes, collects, shares, comments, 稍后再看). */
import { map } from 'nanostores';
import type { VideoItem } from '../shared/video-item.ts';
import { $marks, type PageMarks } from './marks.ts';

/** The parts of a video that change while it is on screen. */
export interface VideoStats {
  liked: boolean;
  digg: number;
  collected: boolean;
  collect: number;
  share: number;
  comment: number;
  /** In 稍后再看 (the feed does not know at first; the first L adds). */
  later: boolean;
}

/** Live counts and marks by video id, once the viewer acted on it here; a video not in here shows what it was rendered with and the viewer's marks. */
export const $stats = map<Record<string, VideoStats>>({});

/**
 * The current counts and marks of `item`: what the viewer did here, else what it was rendered with and the marks that
 * arrived after first paint (a shared page is rendered with none). A click made before the marks arrived stays what it
 * was: it named its end state, which the marks, read before the write perhaps, cannot take back.
 */
export function statsOf(
  item: VideoItem,
  all: Record<string, VideoStats> = $stats.get(),
  marks: PageMarks | null = $marks.get(),
): VideoStats {
  return (
    all[item.id] ?? {
      liked: item.liked || !!marks?.liked.has(item.id),
      digg: item.digg,
      collected: item.collected || !!marks?.collected.has(item.id),
      collect: item.collect,
      share: item.share,
      comment: item.comment,
      later: !!marks?.later.has(item.id),
    }
  );
}

/** Changes some of `item`'s counts and marks; answers what they were before. */
export function patchStats(item: VideoItem, change: Partial<VideoStats>): VideoStats {
  const before = statsOf(item);
  $stats.setKey(item.id, { ...before, ...change });
  return before;
}

/** What anyone sees of `s`: the counts without the viewer's marks (once the session has ended). */
export function withoutMarks(s: VideoStats): VideoStats {
  return { ...s, liked: false, collected: false, later: false };
}
