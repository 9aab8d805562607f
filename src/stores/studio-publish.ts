/** 发布视频's form: the chosen video, title, channel, cover, visibility and comments switch, and the publish action. */
import { atom, map } from 'nanostores';
import { STUDIO_API, type StudioConfig, type StudioWork, type Visibility } from '../shared/studio.ts';
import { titleProblem, type Problem } from './studio-check.ts';
import { studioPost } from './studio-api.ts';
import { $uploads, cancelUpload, type UploadEntry } from './studio-uploads.ts';

/** The cover: a frame of the video at `time` seconds, or an uploaded image (its key in `$uploads`); null is the first frame. */
export type CoverChoice = { mode: 'frame'; time: number } | { mode: 'image'; key: string } | null;

export interface Draft {
  /** The video's key in `$uploads`, null before a file is chosen. */
  videoKey: string | null;
  title: string;
  channelId: number | null;
  visibility: Visibility;
  allowComments: boolean;
  cover: CoverChoice;
}

const EMPTY: Draft = {
  videoKey: null,
  title: '',
  channelId: null,
  visibility: 'public',
  allowComments: true,
  cover: null,
};

export const $draft = map<Draft>({ ...EMPTY });
/** The publish request: in flight, or the server's refusal to show. */
export const $publishing = atom<{ busy: boolean; error: string | null }>({ busy: false, error: null });

/** Changes fields of the form. */
export function setDraft(change: Partial<Draft>): void {
  $draft.set({ ...$draft.get(), ...change });
  if ($publishing.get().error) $publishing.set({ busy: false, error: null });
}

/** A new video for the form: a title from its file name when none is written yet, and the cover back to the first frame. */
export function chooseVideo(videoKey: string, fileName: string): void {
  const draft = $draft.get();
  const title = draft.title.trim() ? draft.title : fileName.replace(/\.[^.]+$/, '').slice(0, 100);
  setDraft({ videoKey, title, cover: draft.cover?.mode === 'image' ? draft.cover : null });
}

/** Drops the video (cancelling its upload) and any cover image; the written title and choices stay. */
export async function dropVideo(): Promise<void> {
  const { videoKey, cover } = $draft.get();
  setDraft({ videoKey: null, cover: null });
  await Promise.all([videoKey && cancelUpload(videoKey), cover?.mode === 'image' && cancelUpload(cover.key)]);
}

/** Empties the form (after publishing). */
export function resetDraft(): void {
  $draft.set({ ...EMPTY });
  $publishing.set({ busy: false, error: null });
}

const DONE = new Set<UploadEntry['phase']>(['processing', 'ready']);

/** Why 发布 cannot be pressed yet (the upload, the title, the channel, the cover), or null when it can. */
export function publishBlocker(
  draft: Draft,
  uploads: Record<string, UploadEntry>,
  config: StudioConfig | null,
): Problem | null {
  const video = draft.videoKey ? uploads[draft.videoKey] : undefined;
  if (!video || !config) return { key: 'studio.publish.needVideo' };
  if (video.phase === 'rejected') return { key: 'studio.publish.videoRefused' };
  if (!DONE.has(video.phase)) return { key: 'studio.publish.waitUpload' };
  const title = titleProblem(draft.title, config.titleMax);
  if (title) return title;
  if (draft.channelId === null) return { key: 'error.channelInvalid' };
  if (draft.cover?.mode === 'image') {
    const cover = uploads[draft.cover.key];
    if (cover?.phase === 'rejected' || cover?.phase === 'failed') return { key: 'studio.publish.coverRefused' };
    if (cover?.phase !== 'ready') return { key: 'studio.publish.waitCover' };
  }
  return null;
}

/** Publishes the draft; resolves to the new work, or rejects after putting the server's message in `$publishing`. */
export async function publishDraft(config: StudioConfig): Promise<StudioWork> {
  const draft = $draft.get();
  const uploads = $uploads.get();
  if (publishBlocker(draft, uploads, config) || $publishing.get().busy) throw new Error('not ready to publish');
  const video = uploads[draft.videoKey!]!;
  const cover = draft.cover;
  $publishing.set({ busy: true, error: null });
  try {
    const work = await studioPost<StudioWork>(
      STUDIO_API.create,
      {
        uploadId: video.uploadId,
        title: draft.title.trim(),
        channelId: draft.channelId,
        coverTime: cover?.mode === 'frame' ? Math.round(cover.time * 1000) / 1000 : undefined,
        coverUploadId: cover?.mode === 'image' ? uploads[cover.key]?.uploadId : undefined,
        visibility: draft.visibility,
        allowComments: draft.allowComments ? '1' : '0',
      },
      { quiet: true, idempotent: true },
    );
    $publishing.set({ busy: false, error: null });
    return work;
  } catch (error) {
    $publishing.set({ busy: false, error: (error as Error).message });
    throw error;
  }
}
