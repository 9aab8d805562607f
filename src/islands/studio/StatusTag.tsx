import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import type { StudioStatus } from '../../shared/studio.ts';

const TONE: Record<StudioStatus, string> = {
  uploading: 'border border-accent text-accent-text',
  processing: 'bg-[color-mix(in_srgb,var(--c-accent)_12%,transparent)] text-accent-text',
  ready: 'bg-raised text-secondary',
  published: 'bg-raised text-secondary',
  rejected: 'bg-accent-fill text-white',
};

/** A work's or an upload's state as a small label: 上传中, 处理中, 待发布, 已发布, 未通过. */
export function StatusTag({ status }: { status: StudioStatus }) {
  return (
    <span className={`inline-flex h-5 shrink-0 items-center rounded px-1.5 text-xs font-medium ${TONE[status]}`}>
      {t(`studio.status.${status}` as MessageKey)}
    </span>
  );
}
