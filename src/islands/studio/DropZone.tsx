import { useId, useRef, useState, type DragEvent } from 'react';
import { t } from '../../i18n/t.ts';
import { riUploadCloud2Line } from '../../shared/icons.ts';
import { Icon } from '../Icon.tsx';

interface Props {
  accept: string;
  /** Checks and starts the chosen file; an error it answers is shown under the zone. */
  onFile: (file: File) => Promise<string | null>;
}

/**
 * The upload zone: one button that opens the file picker (Enter or Space from the keyboard) and takes a file dropped
 * on it. The picker's input stays in the page, labelled, for assistive technology and tests.
 */
export function DropZone({ accept, onFile }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  const take = (file: File | undefined) => {
    if (file) void onFile(file).then(setError);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files[0]);
  };

  return (
    <div>
      <button
        type="button"
        aria-describedby={error ? errorId : undefined}
        onClick={() => input.current?.click()}
        onDragEnter={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
        data-over={over || undefined}
        className="focus-ring group flex min-h-64 w-full flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed border-line bg-raised px-6 py-10 text-center transition-colors hover:border-accent data-[over]:(border-accent bg-hover) md:min-h-80"
      >
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-[color-mix(in_srgb,var(--c-accent)_12%,transparent)] text-accent md:h-20 md:w-20">
          <Icon svg={riUploadCloud2Line} className="text-4xl md:text-5xl" />
        </span>
        <span className="text-base font-semibold text-primary md:text-lg">{over ? t('studio.upload.dropActive') : t('studio.upload.drop')}</span>
        <span className="max-w-md text-xs leading-5 text-muted md:text-sm">{t('studio.upload.hint')}</span>
        <span className="btn-accent mt-2 h-11 px-8 text-base group-hover:brightness-110">{t('studio.upload.button')}</span>
      </button>
      <label htmlFor={inputId} className="sr-only">
        {t('studio.upload.pick')}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          take(e.target.files?.[0]);
          // The same file may be chosen again after a refusal or a cancel.
          e.target.value = '';
        }}
      />
      {error && (
        <p id={errorId} role="alert" className="mt-3 rounded-lg bg-[color-mix(in_srgb,var(--c-accent)_10%,transparent)] px-4 py-2.5 text-sm text-accent-text">
          {error}
        </p>
      )}
    </div>
  );
}
