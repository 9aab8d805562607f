import { useId } from 'react';
import { t } from '../../i18n/t.ts';
import { riUploadCloud2Line } from '../../shared/icons.ts';
import { Icon } from '../Icon.tsx';

interface Props {
  accept: string;
  /** Why the last file was refused, shown under the zone. */
  error: string | null;
}

/**
 * The upload zone: a label around a native file input, so it opens the picker (click, or Space/Enter once the input has
 * focus) before any script runs. The page's script (client/studio-page.ts) takes what is chosen or dropped and lights
 * the zone while a file is dragged over the page (`data-over`).
 */
export function DropZone({ accept, error }: Props) {
  const errorId = useId();
  const hintId = useId();
  return (
    <div>
      <label
        data-studio-zone
        className="studio-zone flex min-h-64 w-full cursor-pointer flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed border-line bg-raised px-6 py-10 text-center transition-colors hover:border-accent focus-within:(outline-2 outline-solid outline-accent outline-offset-2) md:min-h-80"
      >
        <input
          data-studio-input
          type="file"
          accept={accept}
          className="sr-only"
          aria-label={t('studio.upload.pick')}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        />
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-[color-mix(in_srgb,var(--c-accent)_12%,transparent)] text-accent md:h-20 md:w-20">
          <Icon svg={riUploadCloud2Line} className="text-4xl md:text-5xl" />
        </span>
        <span className="text-base font-semibold text-primary md:text-lg">
          {/* A phone has nothing to drag a file from: there the zone just says to tap it. */}
          <span className="studio-zone-idle">
            <span className="lt-tablet:hidden">{t('studio.upload.drop')}</span>
            <span className="tablet:hidden">{t('studio.upload.tap')}</span>
          </span>
          <span className="studio-zone-over">{t('studio.upload.dropActive')}</span>
        </span>
        <span id={hintId} className="max-w-md text-xs leading-5 text-secondary md:text-sm">
          {t('studio.upload.hint')}
        </span>
        <span className="btn-accent mt-2 h-11 px-8 text-base">{t('studio.upload.button')}</span>
      </label>
      {error && (
        <p
          id={errorId}
          role="alert"
          className="mt-3 rounded-lg bg-[color-mix(in_srgb,var(--c-accent)_10%,transparent)] px-4 py-2.5 text-sm text-accent-text"
        >
          {error}
        </p>
      )}
    </div>
  );
}
