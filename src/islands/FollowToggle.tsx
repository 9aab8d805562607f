import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { followButtonClass, joinLabels } from '../shared/follow-look.ts';
import { FollowBadge } from './FollowBadge.tsx';
import { $marks, markedFollow } from '../stores/marks.ts';
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
  const marks = useStore($marks);
  // What was rendered holds when it names a relation, or when the page was rendered for this viewer (an island's API
  // answer, /user/self). A page every viewer shares was rendered for a visitor: its 关注 says nothing, the viewer's
  // marks do.
  const known = rendered !== 0 || globalThis.document?.body?.hasAttribute('data-viewer') === true;
  const fromPage = known ? rendered : markedFollow(marks, secUid, rendered);
  const status = statuses[secUid] ?? fromPage;
  // Shared with the other buttons for the same user on the page.
  useEffect(() => {
    if (known || marks) seedFollowStatus(secUid, fromPage);
  }, [secUid, known, marks, fromPage]);

  if (size === 'badge')
    return (
      <FollowBadge
        status={status}
        pending={pending}
        label={labels[status]}
        onClick={() => void toggleFollow(secUid, status)}
        secUid={secUid}
        labels={labels}
      />
    );
  return (
    <button
      type="button"
      data-follow-for={secUid}
      aria-busy={pending || undefined}
      onClick={() => void toggleFollow(secUid, status)}
      className={followButtonClass(status, size)}
      data-mark="follow"
      data-user={secUid}
      data-labels={joinLabels(labels)}
      data-size={size}
    >
      {labels[status]}
    </button>
  );
}
