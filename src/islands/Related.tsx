import { useRef, useState } from 'react';
import { cardFromAweme, type AwemeCard, type CardData } from '../client/card-data.ts';
import { t } from '../i18n/t.ts';
import { riRefreshLine } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';
import { VideoCardView } from './VideoCardView.tsx';

interface Props {
  awemeId: string;
  /** The related videos the server rendered. */
  initial: CardData[];
  count?: number;
  /** The server's clock when it rendered (ms), so relative dates hydrate unchanged. */
  renderedAt: number;
}

/** filterGids takes at most 100 ids; the most recent ones matter most. */
const MAX_FILTER = 100;

/** 相关推荐 with 换一换: each refresh asks for videos not shown yet (filterGids); when none are left it starts over. */
export function Related({ awemeId, initial, count = 12, renderedAt }: Props) {
  const [items, setItems] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [spin, setSpin] = useState(0);
  const shown = useRef<string[]>(initial.map((v) => v.id));
  const list = useRef<HTMLUListElement>(null);

  const refresh = async () => {
    if (loading) return;
    setLoading(true);
    setSpin((n) => n + 1);
    try {
      // The client loads when first needed: the page's first load stays without it.
      const { apiGet } = await import('../client/api.ts');
      const ask = (filter: string[]) =>
        apiGet<{ aweme_list: AwemeCard[] }>('/aweme/v1/web/aweme/related/', {
          aweme_id: awemeId,
          count,
          refresh_index: 1,
          filterGids: filter.length ? filter.join(',') : undefined,
        });
      let body = await ask(shown.current.slice(-MAX_FILTER));
      if (body.aweme_list.length === 0) {
        shown.current = [];
        body = await ask(items.map((v) => v.id));
      }
      const next = body.aweme_list.map(cardFromAweme);
      if (next.length) {
        shown.current = [...shown.current, ...next.map((v) => v.id)];
        setItems(next);
        list.current?.querySelector<HTMLElement>('a')?.focus({ preventScroll: true });
      }
    } catch {
      // The API client has shown the failure; the current list stays.
    } finally {
      setLoading(false);
    }
  };

  return (
    <section aria-labelledby="related-title">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="related-title" className="section-title">
          {t('video.related')}
        </h2>
        <button type="button" onClick={() => void refresh()} aria-busy={loading || undefined} className="btn-ghost h-7 px-2 text-xs">
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
        <ul ref={list} aria-busy={loading || undefined} className={`grid grid-cols-2 gap-3 transition-opacity ${loading ? 'opacity-60' : ''}`} data-related="">
          {/* Beside the player in the first screen: the posters load at once. */}
          {items.map((v) => (
            <li key={v.id}>
              <VideoCardView video={v} eager now={renderedAt} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
