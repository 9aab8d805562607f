/** 弹幕 of the videos on the page: each video's list (fetched once) and the viewer's own, shown the moment they are sent. */
import { atom } from 'nanostores';
import { apiGet, apiPost } from './api.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { requireLogin } from './auth.ts';

/** One danmaku as the layer plays it. */
export interface Bullet {
  id: string;
  text: string;
  /** Milliseconds into the video. */
  at: number;
}

interface Row {
  danmaku_id: string;
  text: string;
  offset_ms: number;
}

const toBullet = (r: Row): Bullet => ({ id: r.danmaku_id, text: r.text, at: r.offset_ms });

/** Lists by video id, fetched once per page. */
const lists = new Map<string, Promise<Bullet[]>>();

/** The danmaku of video `id` in time order (empty when they cannot be fetched; the next call tries again). */
export function loadDanmaku(id: string): Promise<Bullet[]> {
  let list = lists.get(id);
  if (!list) {
    list = apiGet<{ danmaku_list: Row[] }>('/aweme/v1/web/danmaku/list/', { aweme_id: id }, { quiet: true })
      .then((b) => b.danmaku_list.map(toBullet).sort((a, b) => a.at - b.at))
      .catch(() => {
        lists.delete(id);
        return [];
      });
    lists.set(id, list);
  }
  return list;
}

/** A danmaku the viewer just sent: shown at once, outlined. */
export const $sentDanmaku = atom<{ videoId: string; bullet: Bullet } | null>(null);

/**
 * Sends `text` at `atMs` into `item` (anonymous viewers get the login dialog); resolves true once stored. A refusal
 * (rate limit, expired session) has been shown by the API client.
 */
export async function sendDanmaku(item: VideoItem, text: string, atMs: number): Promise<boolean> {
  if (!requireLogin()) return false;
  try {
    const answer = await apiPost<{ danmaku: Row }>('/aweme/v1/web/danmaku/send/', {
      aweme_id: item.id,
      text,
      offset_ms: Math.round(atMs),
    });
    $sentDanmaku.set({ videoId: item.id, bullet: toBullet(answer.danmaku) });
    return true;
  } catch {
    return false;
  }
}
