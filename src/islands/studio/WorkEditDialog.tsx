import { useStore } from '@nanostores/react';
import { useId, useState } from 'react';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import type { EditWorkInput, StudioConfig, StudioWork } from '../../shared/studio.ts';
import { titleProblem } from '../../stores/studio-check.ts';
import type { CoverChoice } from '../../stores/studio-publish.ts';
import { $uploads, cancelUpload } from '../../stores/studio-uploads.ts';
import { saveWork } from '../../stores/studio-works.ts';
import { TAP } from './classes.ts';
import { CaptionsEditor } from './CaptionsEditor.tsx';
import { CoverPicker } from './CoverPicker.tsx';
import { TitleField } from './TitleField.tsx';
import { WorkChoices, type Choices } from './WorkChoices.tsx';

interface Props {
  work: StudioWork;
  config: StudioConfig;
  titleId: string;
  onDone: () => void;
}

/** The smallest rendition, to pick a new cover frame from (a published work has at least one). */
function frameSource(work: StudioWork): string | null {
  return [...work.renditions].sort((a, b) => a.gear - b.gear)[0]?.url ?? null;
}

/** What the form changed, as the edit call takes it (absent fields stay as they are). */
export function changesOf(
  work: StudioWork,
  title: string,
  choices: Choices,
  cover: CoverChoice,
  coverUploadId: string | null,
): EditWorkInput {
  const input: EditWorkInput = { workId: work.id };
  if (title.trim() !== work.title) input.title = title.trim();
  if (choices.channelId !== null && choices.channelId !== work.channelId) input.channelId = choices.channelId;
  if (choices.visibility !== work.visibility) input.visibility = choices.visibility;
  if (choices.allowComments !== work.allowComments) input.allowComments = choices.allowComments;
  if (cover?.mode === 'frame' && cover.time !== work.coverTime) input.coverTime = Math.round(cover.time * 1000) / 1000;
  if (cover?.mode === 'image' && coverUploadId) input.coverUploadId = coverUploadId;
  return input;
}

/** 编辑作品: title, cover, channel, visibility and comments of one work, saved together. */
export function WorkEditDialog({ work, config, titleId, onDone }: Props) {
  const uploads = useStore($uploads);
  const [title, setTitle] = useState(work.title);
  const [choices, setChoices] = useState<Choices>({
    channelId: work.channelId,
    visibility: work.visibility,
    allowComments: work.allowComments,
  });
  const [cover, setCover] = useState<CoverChoice>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const coverUpload = cover?.mode === 'image' ? uploads[cover.key] : undefined;
  const problem = titleProblem(title, config.titleMax);
  const coverWaiting = cover?.mode === 'image' && coverUpload?.phase !== 'ready';

  const close = () => {
    if (cover?.mode === 'image') void cancelUpload(cover.key);
    onDone();
  };

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const input = changesOf(work, title, choices, cover, coverUpload?.uploadId ?? null);
      if (Object.keys(input).length > 1) await saveWork(input);
      toast(t('studio.manage.saved'), { type: 'success' });
      onDone();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id={titleId} className="border-b border-line px-5 py-4 text-base font-semibold md:px-6">
        {t('studio.manage.editTitle')}
      </h2>
      <div className="flex flex-col gap-6 px-5 py-5 md:px-6">
        <TitleField value={title} max={config.titleMax} onChange={setTitle} invalid={!!problem} />
        <CoverPicker
          config={config}
          videoSrc={frameSource(work)}
          value={cover}
          onChange={setCover}
          current={{ url: work.cover, time: work.coverTime }}
          durationSec={work.durationMs / 1000}
        />
        <WorkChoices
          name={`edit-${work.id}`}
          config={config}
          value={choices}
          onChange={(c) => setChoices((before) => ({ ...before, ...c }))}
        />
        {/* Saved as they are made, apart from the form's 保存: a file is checked at once and its errors shown here. */}
        <CaptionsEditor workId={work.id} ready={work.status !== 'rejected' && work.durationMs > 0} />
      </div>
      {/* Beside the buttons, in the sticky bar: a refusal stays in sight however far the form is scrolled. */}
      <div className="sticky bottom-0 flex flex-wrap items-center justify-end gap-2 border-t border-line bg-surface px-5 py-3 md:px-6">
        {(error || problem) && (
          <p id={errorId} role="alert" className="mr-auto basis-full text-sm text-accent-text">
            {error ?? (problem && t(problem.key, problem.vars))}
          </p>
        )}
        <button type="button" className={`btn-ghost ${TAP} border border-line px-5`} onClick={close}>
          {t('studio.manage.cancel')}
        </button>
        <button
          type="submit"
          className={`btn-accent ${TAP} px-6`}
          disabled={busy || !!problem || coverWaiting}
          aria-busy={busy || undefined}
          aria-describedby={error || problem ? errorId : undefined}
        >
          {busy ? t('studio.manage.saving') : t('studio.manage.save')}
        </button>
      </div>
    </form>
  );
}
