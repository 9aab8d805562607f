import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import {
  CAPTION_ACCEPT,
  CAPTION_MAX_BYTES,
  CAPTION_MAX_CUES,
  CUE_TEXT_MAX,
  cueClock,
  type Cue,
} from '../../shared/captions.ts';
import {
  $captions,
  loadCaptions,
  removeCaptionTrack,
  saveCue,
  uploadCaptionFile,
} from '../../stores/studio-captions.ts';
import { FIELD_LABEL, TAP } from './classes.ts';

/** One cue: its time, and its text editable in place (saved on Enter or when the field loses focus with a change). */
function CueRow({ workId, index, cue, busy }: { workId: number; index: number; cue: Cue; busy: boolean }) {
  const [text, setText] = useState(cue.text);
  useEffect(() => setText(cue.text), [cue.text]);
  const label = t('captions.cueLabel', { time: cueClock(cue.start) });
  const save = async () => {
    if (text.trim() === cue.text || busy) return;
    if (await saveCue(workId, index, text)) toast(t('captions.cueSaved'), { type: 'success' });
  };
  return (
    <li className="flex items-start gap-3 py-2">
      <span className="w-24 shrink-0 pt-2.5 text-xs tabular-nums text-secondary">
        {cueClock(cue.start)} – {cueClock(cue.end)}
      </span>
      <textarea
        aria-label={label}
        value={text}
        rows={Math.min(3, text.split('\n').length)}
        maxLength={CUE_TEXT_MAX}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void save();
          }
        }}
        className="min-h-11 flex-1 resize-none rounded-lg border border-line bg-raised px-3 py-2 text-sm text-primary outline-none focus:border-accent md:min-h-9"
      />
    </li>
  );
}

/** 字幕 of a work in the studio: upload a .vtt or .srt file, edit each cue's text in place, remove them. */
export function CaptionsEditor({ workId, ready }: { workId: number; ready: boolean }) {
  const state = useStore($captions)[String(workId)];
  const picker = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();
  const errorId = useId();
  const track = state?.track;
  const busy = state?.busy ?? false;

  useEffect(() => {
    if (ready) void loadCaptions(workId);
  }, [workId, ready]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (await uploadCaptionFile(workId, file)) toast(t('captions.saved'), { type: 'success' });
    if (picker.current) picker.current.value = '';
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className={FIELD_LABEL}>
        {t('captions.title')}
      </h3>
      <p className="text-xs text-secondary">
        {t('captions.hint', { max: CAPTION_MAX_BYTES / 1024, cues: CAPTION_MAX_CUES })}
      </p>
      {!ready ? (
        <p className="text-sm text-secondary">{t('captions.processing')}</p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <input
              ref={picker}
              type="file"
              accept={CAPTION_ACCEPT}
              className="sr-only"
              id={`captions-file-${workId}`}
              aria-describedby={state?.error ? errorId : undefined}
              onChange={(e) => void pick(e.currentTarget.files?.[0])}
            />
            <label
              htmlFor={`captions-file-${workId}`}
              className={`btn-ghost ${TAP} cursor-pointer border border-line px-4 focus-within:outline-2 ${busy ? 'pointer-events-none opacity-60' : ''}`}
            >
              {busy ? t('captions.uploading') : track ? t('captions.replace') : t('captions.upload')}
            </label>
            {track && !confirming && (
              <button
                type="button"
                className={`btn-ghost ${TAP} px-3`}
                disabled={busy}
                onClick={() => setConfirming(true)}
              >
                {t('captions.remove')}
              </button>
            )}
            {track && (
              <span className="text-xs text-secondary">
                {t(`captions.source.${track.source}`)} · {t('captions.count', { n: track.cues.length })}
              </span>
            )}
          </div>
          {confirming && (
            <div
              role="alertdialog"
              aria-label={t('captions.removeConfirm')}
              className="flex flex-wrap items-center gap-2 rounded-lg bg-raised px-3 py-2 text-sm"
            >
              <span className="text-secondary">{t('captions.removeConfirm')}</span>
              <button
                type="button"
                className={`btn-accent ${TAP} px-4`}
                onClick={async () => {
                  setConfirming(false);
                  if (await removeCaptionTrack(workId)) toast(t('captions.removed'), { type: 'success' });
                }}
              >
                {t('studio.manage.deleteConfirm')}
              </button>
              <button type="button" className={`btn-ghost ${TAP} px-4`} onClick={() => setConfirming(false)}>
                {t('studio.manage.cancel')}
              </button>
            </div>
          )}
          {state?.error && (
            <p id={errorId} role="alert" className="text-sm text-accent-text">
              {state.error}
            </p>
          )}
          {track === undefined && busy && <p className="text-sm text-secondary">{t('captions.loading')}</p>}
          {track === null && !busy && <p className="text-sm text-secondary">{t('captions.none')}</p>}
          {track && (
            <ol aria-label={t('captions.list')} className="max-h-72 divide-y divide-line overflow-y-auto pr-1">
              {track.cues.map((cue, i) => (
                <CueRow key={`${track.updateTime}-${i}`} workId={workId} index={i} cue={cue} busy={busy} />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
