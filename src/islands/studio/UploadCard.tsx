import { t } from '../../i18n/t.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { riCheckboxCircleFill, riCloseCircleFill, riFilmLine, riWifiOffLine } from '../../shared/icons.ts';
import type { UploadEntry } from '../../stores/studio-uploads.ts';
import { Icon } from '../Icon.tsx';
import { TAP } from './classes.ts';
import { formatSpan } from './format.ts';

interface Props {
  entry: UploadEntry;
  onCancel: () => void;
  onRetry: () => void;
}

/** The percent of an upload sent, whole numbers, 100 only when every byte is there. */
export function percentOf(entry: Pick<UploadEntry, 'sent' | 'size'>): number {
  if (entry.size <= 0) return 0;
  return entry.sent >= entry.size ? 100 : Math.floor((entry.sent / entry.size) * 100);
}

function statusLine(entry: UploadEntry, percent: number): string {
  switch (entry.phase) {
    case 'uploading':
      return t('studio.upload.uploading', { percent });
    case 'retrying':
      return t('studio.upload.retrying');
    case 'failed':
      return t('studio.upload.failed', { reason: entry.error ?? '' });
    case 'processing':
      return t('studio.upload.processing');
    case 'ready':
      return t('studio.upload.ready');
    case 'rejected':
      return t('studio.upload.rejected', { reason: entry.error ?? t('studio.upload.refused') });
  }
}

/** The chosen video's upload: name and size, a progress bar with percent, speed and time left, and its controls. */
export function UploadCard({ entry, onCancel, onRetry }: Props) {
  const percent = percentOf(entry);
  const sending = entry.phase === 'uploading' || entry.phase === 'retrying' || entry.phase === 'failed';
  const bad = entry.phase === 'rejected' || entry.phase === 'failed';
  const done = entry.phase === 'processing' || entry.phase === 'ready';
  const icon = bad
    ? entry.phase === 'failed'
      ? riWifiOffLine
      : riCloseCircleFill
    : done
      ? riCheckboxCircleFill
      : riFilmLine;

  return (
    <section aria-label={entry.fileName} className="rounded-xl border border-line bg-raised p-3 md:p-4">
      <div className="flex items-center gap-3">
        <span
          className={`flex h-11 w-11 shrink-0 items-center justify-center rounded-lg ${bad || done ? 'bg-[color-mix(in_srgb,var(--c-accent)_12%,transparent)] text-accent' : 'bg-surface text-secondary'}`}
        >
          <Icon svg={icon} className="text-2xl" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-primary" title={entry.fileName}>
            {entry.fileName}
          </p>
          <p className="mt-0.5 whitespace-nowrap text-xs tabular-nums text-secondary">
            {sending
              ? t('studio.upload.sent', { sent: formatBytes(entry.sent), total: formatBytes(entry.size) })
              : formatBytes(entry.size)}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap justify-end gap-1">
          {entry.phase === 'failed' && (
            <button type="button" className={`btn-ghost ${TAP} border border-line`} onClick={onRetry}>
              {t('studio.upload.resume')}
            </button>
          )}
          <button type="button" className={`btn-ghost ${TAP} border border-line`} onClick={onCancel}>
            {sending ? t('studio.upload.cancel') : t('studio.upload.replace')}
          </button>
        </div>
      </div>
      <div
        role="progressbar"
        aria-label={t('studio.upload.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={statusLine(entry, percent)}
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-[var(--c-line)]"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-300 ${bad ? 'bg-muted' : 'bg-accent'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs">
        <p className={bad ? 'text-accent-text' : 'text-secondary'}>
          {statusLine(entry, percent)}
          {entry.phase === 'uploading' && entry.resumed && (
            <span className="ml-2 text-secondary">{t('studio.upload.resumed')}</span>
          )}
        </p>
        {entry.phase === 'uploading' && entry.speed > 0 && (
          <p className="tabular-nums text-secondary">
            {t('studio.upload.speed', { speed: formatBytes(entry.speed) })}
            {entry.secondsLeft !== null && (
              <span className="ml-3">{t('studio.upload.left', { time: formatSpan(entry.secondsLeft) })}</span>
            )}
          </p>
        )}
      </div>
      {/* Announces changes of phase, not every percent. */}
      <span role="status" className="sr-only">
        {entry.phase === 'uploading' ? t('studio.status.uploading') : statusLine(entry, percent)}
      </span>
    </section>
  );
}
