import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { formatCount, t } from '../i18n/t.ts';
import { $followerCounts, $myFollowingCount } from '../stores/follow.ts';
import type { FollowListKind } from '../stores/follow-list.ts';

interface Props {
  secUid: string;
  nickname: string;
  followingCount: number;
  followerCount: number;
  /** The viewer's sec_uid (their own row gets no follow button; on their own profile their 关注 follows their follows); null when anonymous. */
  viewerSecUid: string | null;
}

const loadList = () => import('./FollowList.tsx');
// A chunk that fails to load (offline, a new deploy) leaves a message in the dialog instead of unmounting the counts.
const FollowList = lazy(() =>
  loadList().then(
    (m) => ({ default: m.FollowList }),
    () => ({
      default: () => (
        <p role="alert" className="px-5 py-10 text-center text-sm text-muted">
          {t('profile.list.failed')}
        </p>
      ),
    }),
  ),
);

const LABEL = { following: 'user.following', followers: 'user.followers' } as const;
const TITLE = { following: 'profile.followList.following', followers: 'profile.followList.followers' } as const;

/**
 * The profile's 关注 N and 粉丝 N, each opening its own list in a dialog (Esc closes, focus returns to the count).
 * Hydrated on first interaction or when a follow starts anywhere on the page (`client:interact="follow"`); the counts
 * then follow the follow store, and the list's code loads on the first opening.
 */
export function FollowListDialog({ secUid, nickname, followingCount, followerCount, viewerSecUid }: Props) {
  const reported = useStore($followerCounts, { keys: [secUid] })[secUid];
  const myFollowing = useStore($myFollowingCount);
  // The first render matches the server's HTML; what the store learned shows from the next one.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const counts = {
    following: hydrated && viewerSecUid === secUid && myFollowing !== null ? myFollowing : followingCount,
    followers: hydrated && reported !== undefined ? reported : followerCount,
  };
  const [kind, setKind] = useState<FollowListKind | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (kind && el && !el.open) el.showModal();
  }, [kind]);

  return (
    <>
      {(['following', 'followers'] as const).map((which) => (
        <button
          key={which}
          type="button"
          aria-haspopup="dialog"
          className="focus-ring flex items-baseline gap-1 rounded hover:text-accent-text"
          onPointerEnter={() => void loadList()}
          onClick={(e) => {
            returnTo.current = e.currentTarget;
            setKind(which);
          }}
        >
          <span className="text-muted">{t(LABEL[which])}</span>
          <span className="font-semibold" data-testid={which === 'following' ? 'following-count' : 'follower-count'}>
            {formatCount(counts[which])}
          </span>
        </button>
      ))}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes the dialog; Escape already does so natively */}
      <dialog
        ref={dialog}
        aria-label={kind ? t(TITLE[kind], { nickname }) : undefined}
        className="m-auto backdrop:bg-black/50 w-[min(440px,calc(100vw-32px))] rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl"
        onClose={() => {
          setKind(null);
          returnTo.current?.focus();
        }}
        onPointerDown={(e) => (pressedOnBackdrop.current = e.target === e.currentTarget)}
        onClick={(e) => {
          if (pressedOnBackdrop.current && e.target === e.currentTarget) e.currentTarget.close();
        }}
      >
        {kind && (
          <Suspense fallback={<p className="px-5 py-10 text-center text-sm text-muted">{t('common.loading')}</p>}>
            <FollowList
              key={kind}
              kind={kind}
              secUid={secUid}
              title={t(TITLE[kind], { nickname })}
              titleId={titleId}
              viewerSecUid={viewerSecUid}
              onClose={() => dialog.current?.close()}
            />
          </Suspense>
        )}
      </dialog>
    </>
  );
}
