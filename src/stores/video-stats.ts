/** The viewer's live counts and marks on each video (likes, collects, shares, comments, 稍后再看). */
import { map } from 'nanostores';
import type { VideoItem } from '../shared/video-item.ts';

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

/** Live counts and marks by video id; a video not in here shows what it was rendered with. */
export const $stats = map<Record<string, VideoStats>>({});

/** The current counts and marks of `item`. */
export function statsOf(item: VideoItem, all: Record<string, VideoStats> = $stats.get()): VideoStats {
  return (
    all[item.id] ?? {
      liked: item.liked,
      digg: item.digg,
      collected: item.collected,
      collect: item.collect,
      share: item.share,
      comment: item.comment,
      later: false,
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
