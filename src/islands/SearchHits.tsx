import type { ReactNode } from 'react';
import type { UserHitView } from '../stores/search-results.ts';
import { formatCount, t } from '../i18n/t.ts';
import { Marked } from './Marked.tsx';

// The results page renders these on the server without JavaScript; SearchMore renders the same ones for later pages.

/** A user result: avatar, highlighted nickname, likes and followers, signature, and an action (the follow button). */
export function UserHitRow({ user, keyword, children }: { user: UserHitView; keyword: string; children?: ReactNode }) {
  const href = `/user/${user.secUid}`;
  return (
    <div className="flex items-center gap-4 py-3">
      <a href={href} className="shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
        <img
          src={user.avatar}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          className="h-14 w-14 rounded-full bg-raised object-cover"
        />
      </a>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <a href={href} className="focus-ring truncate font-medium text-primary hover:text-accent-text">
          <Marked text={user.nickname} keyword={keyword} />
        </a>
        <p className="text-xs text-secondary">
          {t('search.user.stats', {
            likes: formatCount(user.totalFavorited),
            followers: formatCount(user.followerCount),
          })}
        </p>
        <p className="truncate text-xs text-secondary">{user.signature || t('user.noSignature')}</p>
      </div>
      {children}
    </div>
  );
}
