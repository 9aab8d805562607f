import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { t } from '../../i18n/t.ts';
import type { StudioConfig, StudioWork } from '../../shared/studio.ts';
import { $draft, $publishing, publishBlocker, publishDraft, setDraft } from '../../stores/studio-publish.ts';
import { $uploads } from '../../stores/studio-uploads.ts';
import { CoverPicker } from './CoverPicker.tsx';
import { TitleField } from './TitleField.tsx';
import { WorkChoices } from './WorkChoices.tsx';

interface Props {
  config: StudioConfig;
  /** The chosen video as a blob: URL, for picking a cover frame. */
  videoSrc: string | null;
  onPublished: (work: StudioWork) => void;
}

/** The publish form, filled in while the video uploads; 发布 waits for the upload and a valid form. */
export function PublishForm({ config, videoSrc, onPublished }: Props) {
  const draft = useStore($draft);
  const uploads = useStore($uploads);
  const publishing = useStore($publishing);
  const blocker = publishBlocker(draft, uploads, config);
  const hintId = useId();
  const errorId = useId();

  return (
    <form
      className="flex flex-col gap-7"
      onSubmit={(e) => {
        e.preventDefault();
        publishDraft(config).then(onPublished, () => {
          // The server's message is in $publishing, shown beside the button.
        });
      }}
    >
      <TitleField value={draft.title} max={config.titleMax} onChange={(title) => setDraft({ title })} />
      <CoverPicker config={config} videoSrc={videoSrc} value={draft.cover} onChange={(cover) => setDraft({ cover })} />
      <WorkChoices name="publish" config={config} value={draft} onChange={setDraft} />
      <div className="flex flex-col gap-3 border-t border-line pt-5 sm:flex-row sm:items-center">
        <button
          type="submit"
          disabled={blocker !== null || publishing.busy}
          aria-busy={publishing.busy || undefined}
          aria-describedby={[blocker ? hintId : '', publishing.error ? errorId : ''].join(' ').trim() || undefined}
          className="btn-accent h-11 min-w-32 px-10 text-base"
        >
          {publishing.busy ? t('studio.form.publishing') : t('studio.form.publish')}
        </button>
        {blocker && !publishing.error && (
          <p id={hintId} className="text-sm text-secondary">
            {t(blocker.key, blocker.vars)}
          </p>
        )}
        {publishing.error && (
          <p id={errorId} role="alert" className="text-sm text-accent-text">
            {publishing.error}
          </p>
        )}
      </div>
    </form>
  );
}
