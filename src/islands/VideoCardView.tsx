import { formatCount, formatDuration, formatRelative, t } from '../i18n/t.ts';
import { riHeart3Line } from '../shared/icons.ts';
import type { VideoCardItem } from '../shared/video-item.ts';
import { Icon } from './Icon.tsx';
import { Marked } from './Marked.tsx';

// VideoCard.astro's markup in React, for the cards the islands add in the browser (and the search page and Related,
// which render through React anyway), so a card looks the same whichever side drew it. Change the two together; the
// server grids keep the Astro one: 24 static React cards cost a /discover render about 10 ms more CPU.

interface Props {
  video: VideoCardItem;
  /** Ranked lists show the rank over the poster. */
  rank?: number;
  /** The first cards of a page load eagerly; the rest through `data-src` (src/client/lazy-images.ts). */
  eager?: boolean;
  /** Search results: the keyword highlighted in the title and the nickname. */
  keyword?: string;
  /** Colour of the author and date line: search results use text-secondary for AA contrast. */
  tone?: 'muted' | 'secondary';
  /** The clock to date against (ms), so a hydrated island's relative dates match the server's. */
  now?: number;
}

/** A video card: poster with likes, duration and optional rank, then title, author and relative date. */
export function VideoCardView({ video, rank, eager = false, keyword, tone = 'muted', now }: Props) {
  const href = `/video/${video.id}`;
  const created = new Date(video.createdAt);
  const image = eager ? { src: video.poster } : { 'data-src': video.poster };
  return (
    <article className="video-card group flex flex-col gap-2">
      <a href={href} className="card-poster">
        <img {...image} alt={video.desc} width={540} height={720} className="card-img" />
        {rank !== undefined && (
          <span
            className={`absolute left-2 top-2 min-w-6 h-6 px-1 rounded-md text-center text-sm font-bold leading-6 text-white ${rank <= 3 ? 'bg-accent-fill' : 'bg-black/50'}`}
          >
            {rank}
          </span>
        )}
        <span className="card-over left-2 flex items-center gap-1">
          <Icon svg={riHeart3Line} />
          <span>
            <span className="sr-only">{t('video.likes')}</span>
            {formatCount(video.digg)}
          </span>
        </span>
        <span className="card-over right-2">{formatDuration(video.duration)}</span>
      </a>
      <a href={href} className="card-title">
        {keyword === undefined ? video.desc : <Marked text={video.desc} keyword={keyword} />}
      </a>
      <div className={`flex items-center gap-1 text-xs ${tone === 'muted' ? 'text-muted' : 'text-secondary'} min-w-0`}>
        <a href={`/user/${video.author.secUid}`} className="card-author">
          {keyword === undefined ? (
            `@${video.author.nickname}`
          ) : (
            <>
              @<Marked text={video.author.nickname} keyword={keyword} />
            </>
          )}
        </a>
        <span aria-hidden="true">·</span>
        <time dateTime={created.toISOString()} className="shrink-0">
          {formatRelative(created, now === undefined ? undefined : new Date(now))}
        </time>
      </div>
    </article>
  );
}

/** A card's placeholder while a page of cards loads. */
export function VideoCardSkeleton() {
  return (
    <li aria-hidden="true" data-skeleton="">
      <div className="flex flex-col gap-2 animate-pulse">
        <div className="rounded-xl bg-raised aspect-[3/4]" />
        <div className="h-4 w-4/5 rounded bg-raised" />
        <div className="h-3 w-1/2 rounded bg-raised" />
      </div>
    </li>
  );
}

/** Ids of the videos `list` links to: an island continuing the list skips them. */
export function videoIdsIn(list: ParentNode): string[] {
  return [...list.querySelectorAll('a[href^="/video/"]')].flatMap(
    (a) => a.getAttribute('href')?.match(/^\/video\/(\d+)/)?.[1] ?? [],
  );
}
