import { t } from '../i18n/t.ts';
import { FollowToggle, type FollowLabels, type FollowToggleProps } from './FollowToggle.tsx';

export type { FollowLabels };

type Props = Omit<FollowToggleProps, 'labels'> & { labels?: FollowLabels };

const LABELS: FollowLabels = [t('user.follow'), t('user.followed'), t('user.mutual')];

/** The follow button with the catalogue's labels, for islands that have the catalogue anyway (lists, search results). */
export function FollowButton({ labels = LABELS, ...props }: Props) {
  return <FollowToggle labels={labels} {...props} />;
}
