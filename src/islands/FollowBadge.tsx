import type { FollowStatus } from '../shared/api-shapes.ts';
interface BadgeProps {
  /** The sec_uid it follows: hidden when that is the viewer (src/components/inline/own-follow.js). */
  followFor: string;
  status: FollowStatus;
  pending?: boolean;
  label: string;
  onClick: () => void;
}

/** The follow button as a pill under an avatar: the button is a thumb's size, the pill inside it small. */
export function FollowBadge({ followFor, status, pending, label, onClick }: BadgeProps) {
  return (
    <button
      type="button"
      data-follow-for={followFor}
      aria-busy={pending || undefined}
      onClick={onClick}
      className="focus-ring inline-flex h-11 min-w-11 items-center justify-center rounded-full"
    >
      <span
        className={`whitespace-nowrap rounded-full px-2 text-xs leading-5 ${status === 0 ? 'bg-accent-fill text-white' : 'bg-white/90 text-black/70'}`}
      >
        {label}
      </span>
    </button>
  );
}
