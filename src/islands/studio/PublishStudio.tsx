import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { t } from '../../i18n/t.ts';
import { VIDEO_ACCEPT, type StudioWork } from '../../shared/studio.ts';
import { precheckFile } from '../../stores/studio-check.ts';
import { $studioConfig, $studioConfigFailed, loadStudioConfig } from '../../stores/studio-config.ts';
import { $pickedFile } from '../../stores/studio-pick.ts';
import { $draft, chooseVideo, dropVideo, resetDraft } from '../../stores/studio-publish.ts';
import {
  $pendingUploads,
  $uploads,
  isTransferring,
  loadPendingUploads,
  retryUpload,
  startUpload,
} from '../../stores/studio-uploads.ts';
import { CARD, TAP } from './classes.ts';
import { DropZone } from './DropZone.tsx';
import { PendingUploads } from './PendingUploads.tsx';
import { PhonePreview } from './PhonePreview.tsx';
import { PublishForm } from './PublishForm.tsx';
import { UploadCard } from './UploadCard.tsx';
import { useObjectUrl } from './useObjectUrl.ts';

/** Where a published work leads: 视频管理, which follows it until it is processed. */
export const AFTER_PUBLISH = '/post/manage';

/**
 * 发布视频: choose or drop a video, watch it upload while writing the form, publish. `children` is the server's
 * 上传要求, shown under the zone until a video is chosen.
 */
export function PublishStudio({ children }: { children?: ReactNode }) {
  const config = useStore($studioConfig);
  const configFailed = useStore($studioConfigFailed);
  const draft = useStore($draft);
  const uploads = useStore($uploads);
  const pending = useStore($pendingUploads);
  const picked = useStore($pickedFile);
  const [file, setFile] = useState<File | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  const videoSrc = useObjectUrl(file);
  const video = draft.videoKey ? uploads[draft.videoKey] : undefined;

  useEffect(() => {
    void loadStudioConfig();
    loadPendingUploads().catch(() => {});
    // Leaving while bytes are still going out would stop them: the browser asks first.
    const onLeave = (e: BeforeUnloadEvent) => {
      if (isTransferring()) e.preventDefault();
    };
    // Back online: uploads that gave up continue from the server's offset.
    const onOnline = () => {
      for (const u of Object.values($uploads.get())) if (u.phase === 'failed') retryUpload(u.key);
    };
    addEventListener('beforeunload', onLeave);
    addEventListener('online', onOnline);
    return () => {
      removeEventListener('beforeunload', onLeave);
      removeEventListener('online', onOnline);
    };
  }, []);

  // The page's script hands over what was chosen or dropped, also before this island woke up.
  useEffect(() => {
    if (!picked) return;
    $pickedFile.set(null);
    void onFile(picked).then(setZoneError);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a pick is taken once, with the limits this render knows
  }, [picked]);

  const onFile = async (chosen: File): Promise<string | null> => {
    // A file chosen before the limits arrived waits for them.
    const limits = config ?? (await loadStudioConfig());
    if (!limits) return t('studio.upload.rulesFailed');
    const problem = precheckFile(chosen, 'video', limits);
    if (problem) return t(problem.key, problem.vars);
    setFile(chosen);
    chooseVideo(startUpload(chosen, 'video'), chosen.name);
    return null;
  };

  // A video refused by its content goes back to the zone, which says why: no form for a work that cannot be.
  const refused = video?.phase === 'rejected' ? (video.error ?? t('studio.upload.refused')) : null;
  useEffect(() => {
    if (refused === null) return;
    setZoneError(refused);
    setFile(null);
    void dropVideo().then(resetDraft);
  }, [refused]);

  const onPublished = (work: StudioWork) => {
    resetDraft();
    location.assign(`${AFTER_PUBLISH}?published=${work.id}`);
  };

  if (!video || !config || refused !== null) {
    return (
      <div className={`${CARD} flex flex-col gap-6`}>
        <h1 className="text-xl font-bold">{t('post.publish')}</h1>
        <DropZone accept={VIDEO_ACCEPT} error={zoneError ?? refused} />
        {configFailed && (
          <p role="alert" className="flex items-center gap-3 text-sm text-accent-text">
            {t('studio.upload.rulesFailed')}
            <button
              type="button"
              className={`btn-ghost ${TAP} border border-line`}
              onClick={() => void loadStudioConfig()}
            >
              {t('studio.retry')}
            </button>
          </p>
        )}
        {pending && <PendingUploads items={pending} />}
        {children}
      </div>
    );
  }

  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(240px,300px)]">
      <div className={`${CARD} flex min-w-0 flex-col gap-6`}>
        <h1 className="text-xl font-bold">{t('post.publish')}</h1>
        <UploadCard
          entry={video}
          onRetry={() => retryUpload(video.key)}
          onCancel={() => {
            setFile(null);
            void dropVideo();
          }}
        />
        <PublishForm config={config} videoSrc={videoSrc} onPublished={onPublished} />
      </div>
      <aside className={`${CARD} hidden lg:(sticky block) top-[calc(var(--header-h)+16px)]`}>
        <PhonePreview videoSrc={videoSrc} title={draft.title} />
      </aside>
    </div>
  );
}
