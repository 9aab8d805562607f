import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { t } from '../../i18n/t.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { COVER_ACCEPT, type StudioConfig } from '../../shared/studio.ts';
import { precheckFile } from '../../stores/studio-check.ts';
import type { CoverChoice } from '../../stores/studio-publish.ts';
import { $uploads, cancelUpload, startUpload } from '../../stores/studio-uploads.ts';
import { FIELD_LABEL, TAP } from './classes.ts';
import { formatPosition } from './format.ts';
import { useObjectUrl } from './useObjectUrl.ts';
import { percentOf } from './UploadCard.tsx';

interface Props {
  config: StudioConfig;
  /** The video to pick a frame from (a local file or a rendition); null: only an image can be chosen. */
  videoSrc: string | null;
  value: CoverChoice;
  onChange: (cover: CoverChoice) => void;
  /** The cover shown while nothing new is chosen (editing a work), and the frame time it was cut at. */
  current?: { url: string; time: number | null };
  /** The video's length when known before it loads (a work's duration). */
  durationSec?: number;
}

/** 设置封面: a frame of the video chosen with a slider, or an image uploaded for it (checked by the server). */
export function CoverPicker({ config, videoSrc, value, onChange, current, durationSec = 0 }: Props) {
  const uploads = useStore($uploads);
  const [chosenMode, setMode] = useState<'frame' | 'image'>(value?.mode === 'image' ? 'image' : 'frame');
  // Without a video (its URL comes a moment after the file) only an image can be chosen.
  const mode = videoSrc ? chosenMode : 'image';
  const [loadedDuration, setDuration] = useState(0);
  const duration = loadedDuration || durationSec;
  const [image, setImage] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const imageUrl = useObjectUrl(image);
  const video = useRef<HTMLVideoElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const sliderId = useId();
  const hintId = useId();
  const time = value?.mode === 'frame' ? value.time : (current?.time ?? 0);
  const cover = value?.mode === 'image' ? uploads[value.key] : undefined;
  const showFrame = mode === 'frame' && videoSrc && (value?.mode === 'frame' || !current);

  useEffect(() => {
    const el = video.current;
    if (el && el.readyState >= 1 && Math.abs(el.currentTime - time) > 0.05) el.currentTime = time;
  }, [time, showFrame]);

  const chooseImage = (file: File | undefined) => {
    if (!file) return;
    const problem = precheckFile(file, 'cover', config);
    setError(problem ? t(problem.key, problem.vars) : null);
    if (problem) return;
    if (value?.mode === 'image') void cancelUpload(value.key);
    setImage(file);
    onChange({ mode: 'image', key: startUpload(file, 'cover') });
  };

  const removeImage = () => {
    if (value?.mode === 'image') void cancelUpload(value.key);
    setImage(null);
    onChange(null);
  };

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className={`${FIELD_LABEL} mb-2`}>{t('studio.form.cover')}</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div
          className="relative aspect-[3/4] w-32 shrink-0 overflow-hidden rounded-xl bg-raised md:w-36"
          aria-hidden="true"
        >
          {mode === 'image' && imageUrl ? (
            <img src={imageUrl} alt="" className="h-full w-full object-cover" />
          ) : showFrame ? (
            <video
              ref={video}
              src={videoSrc}
              muted
              playsInline
              preload="auto"
              onLoadedMetadata={(e) => {
                setDuration(e.currentTarget.duration || 0);
                e.currentTarget.currentTime = time;
              }}
              className="h-full w-full object-cover"
            />
          ) : current?.url ? (
            <img src={current.url} alt="" className="h-full w-full object-cover" />
          ) : null}
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          {videoSrc && (
            <div className="flex w-fit rounded-lg bg-raised p-1" role="group" aria-label={t('studio.form.cover')}>
              {(['frame', 'image'] as const).map((m) => (
                <button
                  key={m}
                  type="button"
                  aria-pressed={mode === m}
                  onClick={() => setMode(m)}
                  className={`focus-ring ${TAP} rounded-md px-4 text-sm ${mode === m ? 'bg-surface font-medium text-primary shadow-sm' : 'text-secondary hover:text-primary'}`}
                >
                  {t(m === 'frame' ? 'studio.form.coverFrame' : 'studio.form.coverImage')}
                </button>
              ))}
            </div>
          )}
          {mode === 'frame' && videoSrc ? (
            <div className="flex flex-col gap-2">
              <div className="flex items-center justify-between text-xs text-secondary">
                <label htmlFor={sliderId}>{t('studio.form.coverTime')}</label>
                <span className="tabular-nums">{formatPosition(time)}</span>
              </div>
              <input
                id={sliderId}
                type="range"
                min={0}
                max={Math.max(duration, 0.1)}
                step={0.1}
                value={Math.min(time, duration || time)}
                disabled={duration === 0}
                aria-describedby={hintId}
                aria-valuetext={formatPosition(time)}
                onChange={(e) => onChange({ mode: 'frame', time: Number(e.target.value) })}
                className="h-11 w-full cursor-pointer accent-[var(--c-accent)] md:h-6"
              />
              <p id={hintId} className="text-xs text-secondary">
                {value?.mode === 'frame' || current ? t('studio.form.coverFrameHint') : t('studio.form.coverFirst')}
              </p>
            </div>
          ) : (
            <div className="flex flex-col items-start gap-2">
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={`btn-ghost ${TAP} border border-line`}
                  onClick={() => picker.current?.click()}
                >
                  {t('studio.form.coverImagePick')}
                </button>
                {value?.mode === 'image' && (
                  <button type="button" className={`btn-ghost ${TAP}`} onClick={removeImage}>
                    {t('studio.form.coverRemove')}
                  </button>
                )}
              </div>
              <input
                ref={picker}
                type="file"
                accept={COVER_ACCEPT}
                className="sr-only"
                tabIndex={-1}
                aria-label={t('studio.form.coverImagePick')}
                onChange={(e) => {
                  chooseImage(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <p className="text-xs text-secondary">
                {t('studio.form.coverImageHint', {
                  formats: config.coverExtensions.map((x) => x.toUpperCase()).join('、'),
                  max: formatBytes(config.coverMaxBytes),
                })}
              </p>
              {cover && (cover.phase === 'uploading' || cover.phase === 'retrying') && (
                <p className="text-xs text-secondary">
                  {t('studio.form.coverUploading', { percent: percentOf(cover) })}
                </p>
              )}
              {cover && (cover.phase === 'rejected' || cover.phase === 'failed') && (
                <p role="alert" className="text-xs text-accent-text">
                  {cover.error}
                </p>
              )}
            </div>
          )}
          {error && (
            <p role="alert" className="text-xs text-accent-text">
              {error}
            </p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
