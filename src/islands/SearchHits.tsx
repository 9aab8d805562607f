import type { ReactNode } from 'react';
import type { UserHitView, VideoHit } from '../client/search-api.ts';
import { formatCount, formatDuration, formatRelative, t } from '../i18n/t.ts';
import { riHeart3Line } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';
import { Marked } from './Marked.tsx';

// The results page renders these on the server without JavaScript; SearchMore renders the same ones for later pages.

/** A video result: VideoCard.astro's markup, with the keyword highlighted and the small print at AA contrast (text-secondary). */
export function VideoHitCard({ video, keyword }: { video: VideoHit; keyword: string }) {
  const href = `/video/${video.id}`;
  const created = new Date(video.createdAt);
  return (
    <article className="video-card group flex flex-col gap-2">
      <a href={href} className="focus-ring relative block overflow-hidden rounded-xl bg-raised aspect-[3/4]">
        <img
          src={video.cover}
          alt={video.desc}
          width={540}
          height={720}
          loading="lazy"
          decoding="async"
          className="absolute inset-0 w-full h-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
        <span className="absolute left-2 bottom-2 flex items-center gap-1 text-xs text-white drop-shadow">
          <Icon svg={riHeart3Line} />
          <span>
            <span className="sr-only">{t('video.likes')}</span>
            {formatCount(video.diggCount)}
          </span>
        </span>
        <span className="absolute right-2 bottom-2 text-xs text-white drop-shadow">{formatDuration(video.durationMs)}</span>
      </a>
      <a href={href} className="focus-ring line-clamp-2 text-sm leading-5 text-primary hover:text-accent">
        <Marked text={video.desc} keyword={keyword} />
      </a>
      <div className="flex items-center gap-1 text-xs text-secondary min-w-0">
        <a href={`/user/${video.authorSecUid}`} className="focus-ring truncate hover:text-primary">
          @<Marked text={video.authorNickname} keyword={keyword} />
        </a>
        <span aria-hidden="true">·</span>
        <time dateTime={created.toISOString()} className="shrink-0">
          {formatRelative(created)}
        </time>
      </div>
    </article>
  );
}

/** A user result: avatar, highlighted nickname, likes and followers, signature, and an action (the follow button). */
export function UserHitRow({ user, keyword, children }: { user: UserHitView; keyword: string; children?: ReactNode }) {
  const href = `/user/${user.secUid}`;
  return (
    <div className="flex items-center gap-4 py-3">
      <a href={href} className="shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
        <img src={user.avatar} alt="" width={56} height={56} loading="lazy" className="h-14 w-14 rounded-full bg-raised object-cover" />
      </a>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <a href={href} className="focus-ring truncate font-medium text-primary hover:text-accent">
          <Marked text={user.nickname} keyword={keyword} />
        </a>
        <p className="text-xs text-secondary">
          {t('search.user.stats', { likes: formatCount(user.totalFavorited), followers: formatCount(user.followerCount) })}
        </p>
        <p className="truncate text-xs text-secondary">{user.signature || t('user.noSignature')}</p>
      </div>
      {children}
    </div>
  );
}
