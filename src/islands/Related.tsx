import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { t } from '../i18n/t.ts';
import { riRefreshLine } from '../shared/icons.ts';
import { readPageData, type PageData } from '../shared/page-data.ts';
import type { VideoCardItem } from '../shared/video-item.ts';
import { relatedVideos } from '../stores/related.ts';
import { Icon } from './Icon.tsx';
import { VideoCardView } from './VideoCardView.tsx';
import { announceLazyImages } from './announceLazyImages.ts';

interface Props {
  awemeId: string;
  /** The related videos the server rendered (the first screen's), from the page's data block. */
  initial: PageData<VideoCardItem[]>;
  /** How many it shows: those the server left out load once it hydrates. */
  count?: number;
  /** The server's clock when it rendered (ms), so relative dates hydrate unchanged. */
  renderedAt: number;
}

/**
 * 相关推荐 with 换一换 (the store asks for videos not shown yet); the new set takes focus. It hydrates when the viewer
 * reaches for the page (src/pages/video/[id].astro) and then loads the cards the server left out.
 */
export function Related({ awemeId, initial, count = 12, renderedAt }: Props) {
  const [related] = useState(() => relatedVideos(awemeId, readPageData(initial), count));
  const items = useStore(related.$items);
  const loading = useStore(related.$loading);
  const [spin, setSpin] = useState(0);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    void related.fill();
  }, [related]);

  // Cards added or swapped in (the rest of the first set, 换一换) hand their posters to the page's lazy loader.
  useEffect(() => {
    announceLazyImages(list.current);
  }, [items]);

  const refresh = async () => {
    if (loading) return;
    setSpin((n) => n + 1);
    if (await related.refresh()) list.current?.querySelector<HTMLElement>('a')?.focus({ preventScroll: true });
  };

  return (
    <section aria-labelledby="related-title">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="related-title" className="section-title">
          {t('video.related')}
        </h2>
        <button
          type="button"
          onClick={() => void refresh()}
          aria-busy={loading || undefined}
          className="btn-ghost h-7 px-2 text-xs"
        >
          <Icon
            svg={riRefreshLine}
            className="transition-transform duration-200 motion-reduce:transition-none"
            style={{ transform: `rotate(${spin * 360}deg)` }}
          />
          {t('related.refresh')}
        </button>
      </div>
      {items.length === 0 ? (
        <p className="py-8 text-center text-sm text-muted">{t('related.empty')}</p>
      ) : (
        <ul
          ref={list}
          aria-busy={loading || undefined}
          className={`grid grid-cols-2 gap-3 transition-opacity ${loading ? 'opacity-60' : ''}`}
          data-related=""
        >
          {/* Beside the player in the first screen, yet after its first frame (src/client/lazy-images.ts). */}
          {items.map((v) => (
            <li key={v.id}>
              <VideoCardView video={v} now={renderedAt} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
