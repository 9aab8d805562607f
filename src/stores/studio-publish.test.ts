import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioConfig } from '../shared/studio.ts';
import type { UploadEntry } from './studio-uploads.ts';

vi.mock('./studio-api.ts', () => ({ studioGet: vi.fn(), studioPost: vi.fn() }));
vi.mock('./studio-uploads.ts', async () => {
  const { map } = await import('nanostores');
  return { $uploads: map({}), cancelUpload: vi.fn(async () => {}) };
});

const { studioPost } = await import('./studio-api.ts');
const { $uploads, cancelUpload } = await import('./studio-uploads.ts');
const { $draft, $publishing, chooseVideo, dropVideo, publishBlocker, publishDraft, resetDraft, setDraft } =
  await import('./studio-publish.ts');
const post = vi.mocked(studioPost);

const config = { titleMax: 10 } as StudioConfig;
const entry = (over: Partial<UploadEntry>): UploadEntry => ({
  key: 'video-1',
  kind: 'video',
  fileName: 'clip.mp4',
  size: 100,
  sent: 100,
  speed: 0,
  secondsLeft: 0,
  phase: 'processing',
  uploadId: 'u1',
  resumed: false,
  error: null,
  view: null,
  ...over,
});

beforeEach(() => {
  resetDraft();
  $uploads.set({});
  post.mockReset();
  vi.mocked(cancelUpload).mockClear();
});

describe('publishBlocker', () => {
  const ready = {
    videoKey: 'video-1',
    title: '日落',
    channelId: 300204,
    visibility: 'public' as const,
    allowComments: true,
    cover: null,
  };
  it.each([
    ['no video yet', { ...ready, videoKey: null }, {}, 'studio.publish.needVideo'],
    ['the video still uploading', ready, { 'video-1': entry({ phase: 'uploading' }) }, 'studio.publish.waitUpload'],
    ['the upload stopped', ready, { 'video-1': entry({ phase: 'failed' }) }, 'studio.publish.waitUpload'],
    ['the video refused', ready, { 'video-1': entry({ phase: 'rejected' }) }, 'studio.publish.videoRefused'],
    ['an empty title', { ...ready, title: ' ' }, { 'video-1': entry({}) }, 'error.titleEmpty'],
    [
      'a title over the limit',
      { ...ready, title: '十一个字的作品标题呀呀' },
      { 'video-1': entry({}) },
      'error.titleTooLong',
    ],
    ['no channel', { ...ready, channelId: null }, { 'video-1': entry({}) }, 'error.channelInvalid'],
    [
      'a cover image still uploading',
      { ...ready, cover: { mode: 'image' as const, key: 'cover-2' } },
      { 'video-1': entry({}), 'cover-2': entry({ kind: 'cover', phase: 'uploading' }) },
      'studio.publish.waitCover',
    ],
    [
      'a cover image refused',
      { ...ready, cover: { mode: 'image' as const, key: 'cover-2' } },
      { 'video-1': entry({}), 'cover-2': entry({ kind: 'cover', phase: 'rejected' }) },
      'studio.publish.coverRefused',
    ],
  ])('blocks with %s', (_, draft, uploads, key) => {
    expect(publishBlocker(draft, uploads, config)?.key).toBe(key);
  });

  it('lets a processing or ready video with a title and channel through', () => {
    expect(publishBlocker(ready, { 'video-1': entry({}) }, config)).toBeNull();
    expect(publishBlocker(ready, { 'video-1': entry({ phase: 'ready' }) }, config)).toBeNull();
    expect(publishBlocker(ready, { 'video-1': entry({}) }, null)?.key).toBe('studio.publish.needVideo');
  });
});

describe('the draft', () => {
  it('takes a title from the file name until one is written, and keeps it when the video changes', () => {
    chooseVideo('video-1', '海边日落.final.mp4');
    expect($draft.get()).toMatchObject({ videoKey: 'video-1', title: '海边日落.final' });
    setDraft({ title: '我的标题', cover: { mode: 'frame', time: 2 } });
    chooseVideo('video-2', 'other.mov');
    expect($draft.get()).toMatchObject({ videoKey: 'video-2', title: '我的标题', cover: null });
  });

  it('dropping the video cancels its upload and a cover image’s', async () => {
    setDraft({ videoKey: 'video-1', cover: { mode: 'image', key: 'cover-2' } });
    await dropVideo();
    expect(vi.mocked(cancelUpload).mock.calls.map((c) => c[0])).toEqual(['video-1', 'cover-2']);
    expect($draft.get()).toMatchObject({ videoKey: null, cover: null });
  });
});

describe('publishDraft', () => {
  it('sends the form as the create call takes it and answers the work', async () => {
    $uploads.set({
      'video-1': entry({}),
      'cover-2': entry({ key: 'cover-2', kind: 'cover', phase: 'ready', uploadId: 'c9' }),
    });
    setDraft({
      videoKey: 'video-1',
      title: '  日落 #旅行 ',
      channelId: 300204,
      visibility: 'friends',
      allowComments: false,
      cover: { mode: 'frame', time: 1.23456 },
    });
    post.mockResolvedValue({ id: 77 });
    await expect(publishDraft(config)).resolves.toEqual({ id: 77 });
    expect(post).toHaveBeenCalledWith(
      '/api/studio/work/create',
      {
        uploadId: 'u1',
        title: '日落 #旅行',
        channelId: 300204,
        coverTime: 1.235,
        coverUploadId: undefined,
        visibility: 'friends',
        allowComments: '0',
      },
      { quiet: true, idempotent: true },
    );
    setDraft({ cover: { mode: 'image', key: 'cover-2' } });
    await publishDraft(config);
    expect(post.mock.calls[1]![1]).toMatchObject({ coverTime: undefined, coverUploadId: 'c9' });
    expect($publishing.get()).toEqual({ busy: false, error: null });
  });

  it('keeps the server’s refusal for the form to show, until the form changes', async () => {
    $uploads.set({ 'video-1': entry({}) });
    setDraft({ videoKey: 'video-1', title: '日落', channelId: 300204 });
    post.mockRejectedValue(new Error('这个视频已经发布过了'));
    await expect(publishDraft(config)).rejects.toThrow('这个视频已经发布过了');
    expect($publishing.get()).toEqual({ busy: false, error: '这个视频已经发布过了' });
    setDraft({ title: '日落2' });
    expect($publishing.get().error).toBeNull();
  });

  it('refuses to send a form that is not ready', async () => {
    await expect(publishDraft(config)).rejects.toThrow();
    expect(post).not.toHaveBeenCalled();
  });
});
