import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { t } from '../i18n/t.ts';
import { riCloseLine } from '../shared/icons.ts';
import { followList, type FollowListKind } from '../stores/follow-list.ts';
import { phaseOf } from '../stores/paged-list.ts';
import { FollowButton } from './FollowButton.tsx';
import { Icon } from './Icon.tsx';

interface Props {
  kind: FollowListKind;
  secUid: string;
  title: string;
  titleId: string;
  /** The viewer's sec_uid (their own row gets no follow button); null when anonymous. */
  viewerSecUid: string | null;
  onClose: () => void;
}

/** One following or follower list in the dialog: avatar, nickname, signature and a follow button per row, page by page. */
export function FollowList({ kind, secUid, title, titleId, viewerSecUid, onClose }: Props) {
  const [pages] = useState(() => followList(kind, secUid));
  const users = useStore(pages.$items);
  const phase = phaseOf(useStore(pages.$state));
  const nearEnd = useRef(true);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);
  const load = pages.load;

  // The sentinel ends the list; while it is near the bottom of the scroller, keep loading.
  useEffect(() => {
    const scroll = scroller.current;
    const el = sentinel.current;
    if (!scroll || !el) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current) void load();
      },
      { root: scroll, rootMargin: '0px 0px 200px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [load]);

  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void load();
  }, [phase, load]);

  return (
    <div className="flex max-h-[min(640px,80vh)] flex-col">
      <div className="flex items-center justify-between border-b border-line px-5 py-4">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <button
          type="button"
          className="btn-ghost h-8 w-8 px-0"
          aria-label={t('profile.followList.close')}
          onClick={onClose}
        >
          <Icon svg={riCloseLine} className="text-xl" />
        </button>
      </div>
      <div ref={scroller} className="min-h-40 flex-1 overflow-y-auto px-2 py-2" aria-busy={phase === 'loading'}>
        <ul aria-labelledby={titleId}>
          {users.map((u) => (
            <li key={u.sec_uid} className="flex items-center gap-3 rounded-lg px-3 py-2 hover:bg-hover">
              {u.room_id > 0 ? (
                <a
                  href={`/live/${u.room_id}`}
                  className="live-ring focus-ring shrink-0"
                  aria-label={`${u.nickname} ${t('live.ring')}`}
                >
                  <img
                    src={u.avatar_thumb.url_list[0]}
                    alt=""
                    width={44}
                    height={44}
                    loading="lazy"
                    className="block h-11 w-11 rounded-full object-cover"
                  />
                </a>
              ) : (
                <img
                  src={u.avatar_thumb.url_list[0]}
                  alt=""
                  width={48}
                  height={48}
                  loading="lazy"
                  className="h-12 w-12 shrink-0 rounded-full object-cover"
                />
              )}
              <div className="min-w-0 flex-1">
                <a
                  href={`/user/${u.sec_uid}`}
                  className="focus-ring block truncate text-sm font-medium text-primary hover:text-accent-text"
                >
                  {u.nickname}
                </a>
                <p className="truncate text-xs text-muted">{u.signature || t('user.noSignature')}</p>
              </div>
              {u.sec_uid === viewerSecUid ? (
                <span className="px-3 text-xs text-muted">{t('profile.followList.self')}</span>
              ) : (
                <FollowButton secUid={u.sec_uid} status={u.follow_status} size="sm" />
              )}
            </li>
          ))}
          <li ref={sentinel} aria-hidden="true" className="h-px" />
        </ul>
        <div role="status" className="flex flex-col items-center gap-2 py-4 text-sm text-muted">
          {phase === 'loading' && t('common.loading')}
          {phase === 'done' && (users.length === 0 ? t('profile.followList.empty') : t('profile.list.end'))}
          {phase === 'error' && (
            <>
              {t('profile.list.failed')}
              <button type="button" className="btn-ghost border border-line" onClick={() => void load()}>
                {t('profile.list.retry')}
              </button>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
