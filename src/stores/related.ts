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

  /** 换一换: resolves true when a new set is shown (the current one stays on failure; the API client has said why). */
  async function refresh(): Promise<boolean> {
    if ($loading.get()) return false;
    $loading.set(true);
    try {
      // The client loads when first needed: the page's first load stays without it.
      const { apiGet } = await import('../client/api.ts');
      const ask = (filter: string[]) =>
        apiGet<{ aweme_list: Aweme[] }>('/aweme/v1/web/aweme/related/', {
          aweme_id: awemeId,
          count,
          refresh_index: 1,
          filterGids: filter.length ? filter.join(',') : undefined,
        });
      let body = await ask(shown.slice(-MAX_FILTER));
      if (body.aweme_list.length === 0) {
        shown = [];
        body = await ask($items.get().map((v) => v.id));
      }
      const next = body.aweme_list.map(fromAweme);
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

  return { $items, $loading, refresh };
}
