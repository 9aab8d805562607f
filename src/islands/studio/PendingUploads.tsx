import { t } from '../../i18n/t.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { riCloseCircleFill, riHistoryLine } from '../../shared/icons.ts';
import { discardPendingUpload, type PendingUpload } from '../../stores/studio-uploads.ts';
import { Icon } from '../Icon.tsx';
import { TAP } from './classes.ts';

/**
 * Unfinished uploads from earlier visits: how far each got, and the way to continue (choose the same file) or give up;
 * one the server has ended since says why, until it is dismissed.
 */
export function PendingUploads({ items }: { items: PendingUpload[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="studio-pending-title" className="rounded-xl border border-line p-4">
      <h2 id="studio-pending-title" className="flex items-center gap-2 text-sm font-semibold">
        <Icon svg={riHistoryLine} className="text-base text-accent" />
        {t('studio.pending.title')}
      </h2>
      {items.some((p) => p.reason === null) && (
        <p className="mt-1 text-xs text-secondary">{t('studio.pending.hint')}</p>
      )}
      <ul className="mt-3 flex flex-col gap-1">
        {items.map((p) => (
          <li key={p.storageKey} className="flex items-center gap-3 rounded-lg bg-raised px-3 py-2 text-sm">
            {p.reason === null ? (
              <>
                <span className="min-w-0 flex-1 truncate text-primary" title={p.fileName}>
                  {p.fileName}
                </span>
                <span className="shrink-0 text-xs tabular-nums text-secondary">
                  {p.received !== null && p.size > 0
                    ? t('studio.pending.progress', { percent: Math.floor((p.received / p.size) * 100) })
                    : formatBytes(p.size)}
                </span>
              </>
            ) : (
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="truncate text-primary" title={p.fileName}>
                  {p.fileName}
                </span>
                <span className="flex items-center gap-1 text-xs text-accent-text">
                  <Icon svg={riCloseCircleFill} className="shrink-0" />
                  {p.reason}
                </span>
              </span>
            )}
            <button
              type="button"
              className={`btn-ghost ${TAP} shrink-0`}
              aria-label={t(p.reason === null ? 'studio.pending.discardLabel' : 'studio.pending.dismissLabel', {
                name: p.fileName,
              })}
              onClick={() => void discardPendingUpload(p.storageKey)}
            >
              {t(p.reason === null ? 'studio.pending.discard' : 'studio.pending.dismiss')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
