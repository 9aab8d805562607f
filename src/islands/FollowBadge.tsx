import type { FollowStatus } from '../shared/api-shapes.ts';
import { followPillClass, joinLabels } from '../shared/follow-look.ts';
interface BadgeProps {
  status: FollowStatus;
  pending?: boolean;
  label: string;
  onClick: () => void;
  /** Whom it follows and its three labels, so that the viewer's marks can set it before hydration. */
  secUid?: string;
  labels?: readonly [string, string, string];
}

/** The follow button as a pill under an avatar: the button is a thumb's size, the pill inside it small. */
export function FollowBadge({ status, pending, label, onClick, secUid, labels }: BadgeProps) {
  return (
    <button
      type="button"
      aria-busy={pending || undefined}
      onClick={onClick}
      className="focus-ring inline-flex h-11 min-w-11 items-center justify-center rounded-full"
      data-mark={secUid ? 'follow' : undefined}
      data-user={secUid}
      data-labels={labels && joinLabels(labels)}
      data-size={secUid ? 'badge' : undefined}
    >
      <span className={followPillClass(status)}>{label}</span>
    </button>
  );
}
