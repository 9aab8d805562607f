/** 相关推荐 of one video with 换一换: each refresh asks for videos not shown yet, and starts over when none are left. */
import { atom } from 'nanostores';
import type { Aweme } from '../shared/api-shapes.ts';
import { fromAweme, type VideoCardItem } from '../shared/video-item.ts';

/** filterGids takes at most 100 ids; the most recent ones matter most. */
const MAX_FILTER = 100;

/** The related videos of `awemeId`, starting from those the server rendered. */
export function relatedVideos(awemeId: string, initial: VideoCardItem[], count = 12) {
  const $items = atom<VideoCardItem[]>(initial);
  const $loading = atom(false);
  let shown = initial.map((v) => v.id);

  /** `n` related videos but those in `filter` (the API client loads when first needed: the page's first load stays without it). */
  async function ask(n: number, filter: string[]): Promise<VideoCardItem[]> {
    const { apiGet } = await import('./api.ts');
    const body = await apiGet<{ aweme_list: Aweme[] }>('/aweme/v1/web/aweme/related/', {
      aweme_id: awemeId,
      count: n,
      refresh_index: 1,
      filterGids: filter.length ? filter.join(',') : undefined,
    });
    return body.aweme_list.map(fromAweme);
  }

  let filling: Promise<void> | null = null;
  /**
   * The rest of the first set, when the server rendered fewer than `count` (the video page renders the first screen's
   * cards and leaves the others to the browser, to keep its HTML small): the videos that come next, after the shown ones.
   */
  function fill(): Promise<void> {
    filling ??= fillOnce();
    return filling;
  }
  // Not shown as loading: the cards shown stay as they are, the others come below them.
  async function fillOnce(): Promise<void> {
    const missing = count - $items.get().length;
    if (missing <= 0 || initial.length === 0) return;
    try {
      const have = new Set($items.get().map((v) => v.id));
      const more = (await ask(missing, shown.slice(-MAX_FILTER))).filter((v) => !have.has(v.id));
      shown = [...shown, ...more.map((v) => v.id)];
      $items.set([...$items.get(), ...more]);
    } catch {
      // The cards shown stay; 换一换 still works.
    }
  }

  /** 换一换: resolves true when a new set is shown (the current one stays on failure; the API client has said why). */
  async function refresh(): Promise<boolean> {
    if ($loading.get()) return false;
    $loading.set(true);
    try {
      // A set being filled in is finished first: 换一换 leaves out all of it.
      await filling;
      let next = await ask(count, shown.slice(-MAX_FILTER));
      if (next.length === 0) {
        shown = [];
        next = await ask(
          count,
          $items.get().map((v) => v.id),
        );
      }
      if (next.length === 0) return false;
      shown = [...shown, ...next.map((v) => v.id)];
      $items.set(next);
      return true;
    } catch {
      return false;
    } finally {
      $loading.set(false);
    }
  }

  return { $items, $loading, refresh, fill };
}
