import { useCallback, useEffect, useRef, useState } from 'react';
import { apiGet } from '../client/api.ts';
import { t } from '../i18n/t.ts';
import { riCloseLine } from '../shared/icons.ts';
import type { FollowStatus } from '../stores/follow.ts';
import { FollowButton } from './FollowButton.tsx';
import { Icon } from './Icon.tsx';

export type FollowListKind = 'following' | 'followers';

interface Props {
  kind: FollowListKind;
  secUid: string;
  title: string;
  titleId: string;
  /** The viewer's sec_uid (their own row gets no follow button); null when anonymous. */
  viewerSecUid: string | null;
  onClose: () => void;
}

interface ListUser {
  sec_uid: string;
  nickname: string;
  signature: string;
  avatar_thumb: { url_list: string[] };
  follow_status: FollowStatus;
}

type ListBody = { followings?: ListUser[]; followers?: ListUser[]; offset: number; has_more: 0 | 1 };

const PAGE = 20;
const PATH: Record<FollowListKind, string> = { following: '/aweme/v1/web/user/following/list/', followers: '/aweme/v1/web/user/follower/list/' };

/** One following or follower list in the dialog: avatar, nickname, signature and a follow button per row, page by page. */
export function FollowList({ kind, secUid, title, titleId, viewerSecUid, onClose }: Props) {
  const [users, setUsers] = useState<ListUser[]>([]);
  const [phase, setPhase] = useState<'idle' | 'loading' | 'error' | 'done'>('idle');
  const offset = useRef(0);
  const busy = useRef(false);
  const nearEnd = useRef(true);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);

  const load = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setPhase('loading');
    try {
      const body = await apiGet<ListBody>(PATH[kind], { sec_user_id: secUid, offset: offset.current, count: PAGE });
      const page = (kind === 'following' ? body.followings : body.followers) ?? [];
      offset.current = body.offset;
      setUsers((before) => {
        const seen = new Set(before.map((u) => u.sec_uid));
        return [...before, ...page.filter((u) => !seen.has(u.sec_uid))];
      });
      setPhase(body.has_more === 1 && page.length > 0 ? 'idle' : 'done');
    } catch {
      setPhase('error');
    } finally {
      busy.current = false;
    }
  }, [kind, secUid]);

  // The sentinel ends the list; while it is near the bottom of the scroller, keep loading.
  useEffect(() => {
    const scroll = scroller.current;
    const el = sentinel.current;
    if (!scroll || !el) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current && !busy.current) void load();
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
        <button type="button" className="btn-ghost h-8 w-8 px-0" aria-label={t('profile.followList.close')} onClick={onClose}>
          <Icon svg={riCloseLine} className="text-xl" />
        </button>
      </div>
      <div ref={scroller} className="min-h-40 flex-1 overflow-y-auto px-2 py-2" aria-busy={phase === 'loading'}>
        <ul aria-labelledby={titleId}>
          {users.map((u) => (
            <li key={u.sec_uid} className="flex items-center gap-3 rounded-lg px-3 py-2 hover:bg-hover">
              <img src={u.avatar_thumb.url_list[0]} alt="" width={48} height={48} loading="lazy" className="h-12 w-12 shrink-0 rounded-full object-cover" />
              <div className="min-w-0 flex-1">
                <a href={`/user/${u.sec_uid}`} className="focus-ring block truncate text-sm font-medium text-primary hover:text-accent-text">
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
