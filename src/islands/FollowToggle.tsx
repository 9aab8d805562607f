import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { FollowBadge } from './FollowBadge.tsx';
import { $followPending, $followStatus, seedFollowStatus, toggleFollow, type FollowStatus } from '../stores/follow.ts';

/** The three labels, by status: 关注, 已关注, 互相关注. */
export type FollowLabels = readonly [string, string, string];

export interface FollowToggleProps {
  secUid: string;
  /** The relation the server rendered. */
  status: FollowStatus;
  labels: FollowLabels;
  /** badge: a small pill in a 44 px target, under the author's avatar in the phone's action column. */
  size?: 'md' | 'sm' | 'badge';
}

/**
 * 关注 / 已关注 / 互相关注: changes at once, rolls back on failure, asks anonymous visitors to log in. Takes its labels
 * as props so a page can hydrate it without the string catalogue (the profile header does); FollowButton fills them in.
 */
export function FollowToggle({ secUid, status: rendered, labels, size = 'md' }: FollowToggleProps) {
  const statuses = useStore($followStatus, { keys: [secUid] });
  const pending = useStore($followPending, { keys: [secUid] })[secUid] ?? false;
  const status = statuses[secUid] ?? rendered;
  useEffect(() => seedFollowStatus(secUid, rendered), [secUid, rendered]);

  if (size === 'badge')
    return (
      <FollowBadge
        followFor={secUid}
        status={status}
        pending={pending}
        label={labels[status]}
        onClick={() => void toggleFollow(secUid, status)}
      />
    );
  const box = size === 'md' ? 'h-9 min-w-24 px-6' : 'h-8 min-w-20 px-4';
  return (
    <button
      type="button"
      data-follow-for={secUid}
      aria-busy={pending || undefined}
      onClick={() => void toggleFollow(secUid, status)}
      className={
        status !== 0
          ? `focus-ring inline-flex shrink-0 items-center justify-center rounded-md bg-raised text-sm text-secondary hover:bg-hover ${box}`
          : `btn-accent shrink-0 ${box}`
      }
    >
      {labels[status]}
    </button>
  );
}
