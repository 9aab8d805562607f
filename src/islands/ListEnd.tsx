import type { RefObject } from 'react';
import { t } from '../i18n/t.ts';
import type { ListPhase } from '../stores/paged-list.ts';

interface Props {
  phase: ListPhase;
  /** The hook's sentinel: this footer is what nears the viewport. */
  sentinel: RefObject<HTMLDivElement | null>;
  onMore: () => void;
  /** Search results use text-secondary for AA contrast. */
  tone?: 'muted' | 'secondary';
}

/** The foot of a continued list: its status for screen readers (加载中, 没有更多了, failure) and 加载更多 or 重试. */
export function ListEnd({ phase, sentinel, onMore, tone = 'muted' }: Props) {
  return (
    <div
      ref={sentinel}
      className={`flex min-h-16 flex-col items-center justify-center gap-2 py-6 text-sm ${tone === 'muted' ? 'text-muted' : 'text-secondary'}`}
    >
      <p role="status" aria-live="polite" className={phase === 'idle' ? 'sr-only' : undefined}>
        {phase === 'loading'
          ? t('common.loading')
          : phase === 'done'
            ? t('profile.list.end')
            : phase === 'error'
              ? t('profile.list.failed')
              : ''}
      </p>
      {(phase === 'idle' || phase === 'error') && (
        <button type="button" className="btn-ghost border border-line" onClick={onMore}>
          {phase === 'error' ? t('profile.list.retry') : t('common.loadMore')}
        </button>
      )}
    </div>
  );
}
