import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PreviousUpload, UploadOptions } from 'tus-js-client';

/** A stand-in for tus-js-client's Upload: it records what the store asks and lets the test play the server. */
class FakeUpload {
  static made: FakeUpload[] = [];
  static previous: PreviousUpload[] = [];
  static terminated: string[] = [];
  url: string | null = null;
  started = 0;
  aborted: boolean | null = null;
  resumedFrom: PreviousUpload | null = null;
  readonly file: File;
  readonly options: UploadOptions;
  constructor(file: File, options: UploadOptions) {
    this.file = file;
    this.options = options;
    FakeUpload.made.push(this);
  }
  static terminate(url: string) {
    FakeUpload.terminated.push(url);
    return Promise.resolve();
  }
  findPreviousUploads() {
    return Promise.resolve(FakeUpload.previous);
  }
  resumeFromPreviousUpload(p: PreviousUpload) {
    this.resumedFrom = p;
  }
  start() {
    this.started++;
  }
  abort(terminate?: boolean) {
    this.aborted = !!terminate;
    return Promise.resolve();
  }
  /** The server made the upload at /api/upload/<id>. */
  created(id: string) {
    this.url = `/api/upload/${id}`;
    this.options.onUploadUrlAvailable?.();
  }
}

const storage = {
  entries: [] as PreviousUpload[],
  removed: [] as string[],
  findAllUploads: () => Promise.resolve(storage.entries),
  removeUpload: (key: string) => {
    storage.removed.push(key);
    return Promise.resolve();
  },
};

vi.mock('tus-js-client', () => ({ Upload: FakeUpload, defaultOptions: { urlStorage: storage } }));
vi.mock('./studio-api.ts', () => ({ studioGet: vi.fn(), studioPost: vi.fn() }));

const { studioGet } = await import('./studio-api.ts');
const { $user } = await import('./session.ts');
const uploads = await import('./studio-uploads.ts');
const {
  $pendingUploads,
  $uploads,
  cancelUpload,
  discardPendingUpload,
  failureMessage,
  isTransferring,
  loadPendingUploads,
  retryUpload,
  startUpload,
  uploadIdOf,
} = uploads;
const get = vi.mocked(studioGet);

const file = (name = 'clip.mp4', size = 1000) =>
  new File([new Uint8Array(size)], name, { type: 'video/mp4', lastModified: 42 });
const view = (over: Record<string, unknown> = {}) => ({
  id: 'u1',
  kind: 'video',
  fileName: 'clip.mp4',
  sizeBytes: 1000,
  receivedBytes: 1000,
  status: 'processing',
  reason: null,
  durationMs: 3000,
  width: 720,
  height: 1280,
  poster: null,
  workId: null,
  ...over,
});
/** A tus error as the library reports a refused request (with the server's answer) or a lost connection (none). */
const tusError = (status: number | null, body = '') =>
  Object.assign(new Error('tus'), {
    originalRequest: {},
    originalResponse:
      status === null ? null : { getStatus: () => status, getBody: () => body, getHeader: () => undefined },
  });

/** Starts an upload and waits until its transfer is under way. */
async function begin(f: File, kind: 'video' | 'cover' = 'video'): Promise<[string, FakeUpload]> {
  const before = FakeUpload.made.length;
  const key = startUpload(f, kind);
  await vi.waitFor(() => expect(FakeUpload.made[before]?.started).toBe(1));
  return [key, FakeUpload.made[before]!];
}

beforeEach(() => {
  FakeUpload.made = [];
  FakeUpload.previous = [];
  FakeUpload.terminated = [];
  storage.entries = [];
  storage.removed = [];
  $uploads.set({});
  $user.set({ token: 'tok', userInfo: { uid: '7', sec_uid: 'S7', nickname: '我' } });
  get.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startUpload', () => {
  it('sends the file to the tus endpoint with its metadata, the token and a fingerprint of this account', async () => {
    const key = startUpload(file(), 'video');
    // The entry is there at once, before tus has loaded.
    expect($uploads.get()[key]).toMatchObject({
      phase: 'uploading',
      sent: 0,
      size: 1000,
      fileName: 'clip.mp4',
      kind: 'video',
    });
    await vi.waitFor(() => expect(FakeUpload.made[0]?.started).toBe(1));
    const up = FakeUpload.made[0]!;
    expect(up.options).toMatchObject({
      endpoint: '/api/upload',
      headers: { Token: 'tok' },
      metadata: { filename: 'clip.mp4', filetype: 'video/mp4', kind: 'video' },
      removeFingerprintOnSuccess: true,
    });
    expect(up.options.retryDelays!.length).toBeGreaterThan(3);
    expect(await up.options.fingerprint!(file(), up.options)).toBe('studio/7/video/clip.mp4/video/mp4/1000/42');
  });

  it('reports progress with speed and time left, then polls the server until the video is processed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const [key, up] = await begin(file());
    up.created('u1');
    expect($uploads.get()[key]!.uploadId).toBe('u1');
    up.options.onProgress!(0, 1000);
    vi.advanceTimersByTime(1000);
    up.options.onProgress!(250, 1000);
    expect($uploads.get()[key]).toMatchObject({ sent: 250, speed: 250, secondsLeft: 3, phase: 'uploading' });
    expect(isTransferring()).toBe(true);

    get.mockResolvedValueOnce(view()).mockResolvedValueOnce(view({ status: 'ready', poster: '/media/p.webp' }));
    up.options.onSuccess!({ lastResponse: {} as never });
    expect($uploads.get()[key]).toMatchObject({ sent: 1000, phase: 'processing' });
    expect(isTransferring()).toBe(false);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    expect(get).toHaveBeenCalledWith('/api/studio/upload', { uploadId: 'u1' }, { quiet: true });
    await vi.advanceTimersByTimeAsync(uploads.POLL_MS);
    await vi.waitFor(() => expect($uploads.get()[key]!.phase).toBe('ready'));
    expect($uploads.get()[key]!.view?.poster).toBe('/media/p.webp');
    await vi.advanceTimersByTimeAsync(uploads.POLL_MS * 3);
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('shows a refusal found while processing with the server’s reason', async () => {
    const [key, up] = await begin(file());
    up.created('u1');
    get.mockResolvedValueOnce(view({ status: 'rejected', reason: '视频时长不能短于1秒' }));
    up.options.onSuccess!({ lastResponse: {} as never });
    await vi.waitFor(() =>
      expect($uploads.get()[key]).toMatchObject({ phase: 'rejected', error: '视频时长不能短于1秒' }),
    );
  });

  it('a cover is ready as soon as its bytes are in (the server checked it on the last request)', async () => {
    const [key, up] = await begin(file('c.png'), 'cover');
    up.created('c1');
    up.options.onSuccess!({ lastResponse: {} as never });
    expect($uploads.get()[key]).toMatchObject({ phase: 'ready', uploadId: 'c1' });
    expect(get).not.toHaveBeenCalled();
  });

  it('continues the newest unfinished upload of the same file', async () => {
    const older = {
      size: 1000,
      metadata: {},
      creationTime: '2026-11-24T10:00:00Z',
      urlStorageKey: 'a',
      uploadUrl: '/api/upload/old',
      parallelUploadUrls: null,
    };
    const newer = { ...older, creationTime: '2026-11-24T11:00:00Z', urlStorageKey: 'b', uploadUrl: '/api/upload/new' };
    FakeUpload.previous = [older, newer];
    const [key, up] = await begin(file());
    expect(up.resumedFrom).toBe(newer);
    expect($uploads.get()[key]!.resumed).toBe(true);
  });

  it('a refused file is 未通过 with the server’s message; a lost connection is retried, then waits for 继续上传', async () => {
    const [key, up] = await begin(file());
    up.options.onError!(tusError(415, JSON.stringify({ code: '415', msg: '文件不是支持的视频格式', data: null })));
    expect($uploads.get()[key]).toMatchObject({ phase: 'rejected', error: '文件不是支持的视频格式' });

    const [key2, up2] = await begin(file());
    expect(up2.options.onShouldRetry!(tusError(null) as never, 0, up2.options)).toBe(true);
    expect($uploads.get()[key2]!.phase).toBe('retrying');
    expect(up2.options.onShouldRetry!(tusError(503) as never, 1, up2.options)).toBe(true);
    expect(up2.options.onShouldRetry!(tusError(413) as never, 2, up2.options)).toBe(false);
    up2.options.onError!(tusError(null));
    expect($uploads.get()[key2]).toMatchObject({ phase: 'failed', error: '网络错误' });
    retryUpload(key2);
    expect(up2.started).toBe(2);
    expect($uploads.get()[key2]).toMatchObject({ phase: 'uploading', error: null });
  });
});

describe('cancelUpload', () => {
  it('aborts a transfer and has the server delete what it holds; the entry leaves the page', async () => {
    const [key, up] = await begin(file());
    up.created('u1');
    await cancelUpload(key);
    expect(up.aborted).toBe(true);
    expect($uploads.get()[key]).toBeUndefined();
    // Late callbacks of the aborted transfer change nothing.
    up.options.onError!(tusError(null));
    expect($uploads.get()[key]).toBeUndefined();
  });

  it('stops before the transfer starts when cancelled at once', async () => {
    const key = startUpload(file(), 'video');
    await cancelUpload(key);
    await new Promise((r) => setTimeout(r, 20));
    expect(FakeUpload.made.every((u) => u.started === 0)).toBe(true);
  });
});

describe('unfinished uploads from earlier visits', () => {
  const entry = (key: string, id: string) => ({
    size: 1000,
    metadata: { filename: `${id}.mp4` },
    creationTime: `2026-11-24T10:0${id.length}:00Z`,
    urlStorageKey: key,
    uploadUrl: `/api/upload/${id}`,
    parallelUploadUrls: null,
  });

  it('lists this account’s video uploads the server still holds, silently forgetting finished ones', async () => {
    storage.entries = [
      entry('tus::studio/7/video/a::1', 'half'),
      entry('tus::studio/7/video/b::2', 'done'),
      entry('tus::studio/7/video/c::3', 'ready'),
      entry('tus::studio/7/video/f::6', 'full'),
      entry('tus::studio/8/video/d::4', 'other'),
      entry('tus::studio/7/cover/e::5', 'cover'),
    ];
    const keys = storage.entries.map((e) => e.urlStorageKey);
    vi.stubGlobal('localStorage', { length: keys.length, key: (i: number) => keys[i] ?? null });
    get.mockImplementation(async (_path, query) => {
      const id = (query as { uploadId: string }).uploadId;
      // 'full': every byte arrived and the server is still checking it (its status has not turned yet).
      const status = id === 'done' ? 'processing' : id === 'ready' ? 'ready' : 'uploading';
      return view({ id, status, receivedBytes: id === 'full' ? 1000 : 400 });
    });
    const found = await loadPendingUploads();
    expect(found).toEqual([
      {
        storageKey: 'tus::studio/7/video/a::1',
        uploadId: 'half',
        fileName: 'half.mp4',
        size: 1000,
        received: 400,
        createdAt: expect.any(String),
        reason: null,
      },
    ]);
    expect($pendingUploads.get()).toEqual(found);
    expect(storage.removed.sort()).toEqual([
      'tus::studio/7/video/b::2',
      'tus::studio/7/video/c::3',
      'tus::studio/7/video/f::6',
    ]);

    await discardPendingUpload('tus::studio/7/video/a::1');
    expect($pendingUploads.get()).toEqual([]);
    expect(FakeUpload.terminated).toEqual(['/api/upload/half']);
    expect(storage.removed).toContain('tus::studio/7/video/a::1');
    vi.unstubAllGlobals();
  });

  it('shows an upload the server ended (swept as expired, refused, gone) with why, until it is dismissed', async () => {
    storage.entries = [
      entry('tus::studio/7/video/a::1', 'expired'),
      entry('tus::studio/7/video/b::2', 'refused'),
      entry('tus::studio/7/video/c::3', 'gone'),
    ];
    const keys = storage.entries.map((e) => e.urlStorageKey);
    vi.stubGlobal('localStorage', { length: keys.length, key: (i: number) => keys[i] ?? null });
    get.mockImplementation(async (_path, query) => {
      const id = (query as { uploadId: string }).uploadId;
      if (id === 'gone') throw Object.assign(new Error('不存在'), { status: 404 });
      return view({
        id,
        status: 'rejected',
        reason: id === 'expired' ? '上传已过期，请重新上传' : null,
        receivedBytes: 0,
      });
    });
    const found = await loadPendingUploads();
    expect(found.map((p) => [p.uploadId, p.reason, p.received])).toEqual([
      ['expired', '上传已过期，请重新上传', null],
      ['refused', '视频未通过检查', null],
      ['gone', '上传的文件不存在或已过期', null],
    ]);
    // Remembered until the user has seen why.
    expect(storage.removed).toEqual([]);
    expect((await loadPendingUploads()).length).toBe(3);

    await discardPendingUpload('tus::studio/7/video/a::1');
    expect($pendingUploads.get()!.map((p) => p.uploadId)).toEqual(['refused', 'gone']);
    expect(storage.removed).toEqual(['tus::studio/7/video/a::1']);
    // The server holds nothing of it any more: nothing to delete there.
    expect(FakeUpload.terminated).toEqual([]);
    vi.unstubAllGlobals();
  });

  it('does not load tus-js-client when nothing is stored', async () => {
    vi.stubGlobal('localStorage', { length: 1, key: () => 'theme' });
    storage.entries = [entry('tus::studio/7/video/a::1', 'half')];
    await expect(loadPendingUploads()).resolves.toEqual([]);
    expect(get).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});

describe('helpers', () => {
  it('reads the upload id from a tus URL and the message from a refusal', () => {
    expect(uploadIdOf('http://x/api/upload/abc123?x=1')).toBe('abc123');
    expect(uploadIdOf(null)).toBeNull();
    expect(failureMessage(tusError(413, '{"code":"413","msg":"文件不能超过500MB","data":null}'))).toBe(
      '文件不能超过500MB',
    );
    expect(failureMessage(tusError(502, '<html>'))).toBe('请求失败');
    expect(failureMessage(new Error('x'))).toBe('网络错误');
  });
});
