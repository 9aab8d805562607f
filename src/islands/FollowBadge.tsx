import type { FollowStatus } from '../shared/api-shapes.ts';
import { followPillClass, joinLabels } from '../shared/follow-look.ts';
interface BadgeProps {
  /** The sec_uid it follows: hidden when that is the viewer (src/components/inline/own-follow.js). */
  secUid: string;
  status: FollowStatus;
  pending?: boolean;
  label: string;
  onClick: () => void;
  /** Its three labels, so that the viewer's marks can set it before hydration. */
  labels?: readonly [string, string, string];
}

/** The follow button as a pill under an avatar: the button is a thumb's size, the pill inside it small. */
export function FollowBadge({ secUid, status, pending, label, onClick, labels }: BadgeProps) {
  return (
    <button
      type="button"
      data-follow-for={secUid}
      aria-busy={pending || undefined}
      onClick={onClick}
      className="focus-ring inline-flex h-11 min-w-11 items-center justify-center rounded-full"
      data-mark={labels ? 'follow' : undefined}
      data-user={secUid}
      data-labels={labels && joinLabels(labels)}
      data-size={labels ? 'badge' : undefined}
    >
      <span className={followPillClass(status)}>{label}</span>
    </button>
  );
}
