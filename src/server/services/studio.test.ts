import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, makeImage } from '../../../tests/setup/clips.ts';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { follows, notifications, uploads, users, videoHashtags, videos } from '../db/schema.ts';
import { processUpload } from '../jobs/process-video.ts';
import { startQueue, stopQueue } from '../job-queue.ts';
import { mediaDir, uploadsDir } from '../media/paths.ts';
import { searchVideos } from './search.ts';
import { createWork, deleteWork, editWork, failUpload, getWork, listWorks } from './studio.ts';
import { finishUpload, getUpload, registerUpload } from './uploads.ts';
import { byChannel, followFeed, profileTab } from './videos.ts';

let t: TestDb;
let dir: string;
let clip: string;
let author: { id: number; nickname: string };
let fan: number;
let mentioned: { id: number; nickname: string };
const savedDataDir = process.env.DATA_DIR;

beforeAll(async () => {
  t = await freshDb();
  dir = mkdtempSync(path.join(tmpdir(), 'studio-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  mkdirSync(uploadsDir(), { recursive: true });
  clip = makeClip(dir, 'clip.mp4', { seconds: 2, width: 180, height: 320 });
  await startQueue(t.url);
  const rows = await t.db.select({ id: users.id, nickname: users.nickname }).from(users).orderBy(users.id).limit(3);
  [author, mentioned] = [rows[0]!, rows[1]!];
  fan = rows[2]!.id;
  await t.db.insert(follows).values({ followerId: fan, followeeId: author.id }).onConflictDoNothing();
});

afterAll(async () => {
  await stopQueue();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
});

let serial = 0;
/** An upload of the test clip by `userId` whose last byte has arrived and passed the checks. */
async function uploaded(userId = author.id): Promise<string> {
  const id = `test${++serial}${Date.now().toString(36)}`;
  await registerUpload({ id, userId, kind: 'video', fileName: '我的视频.mp4', sizeBytes: 1 });
  copyFileSync(clip, path.join(uploadsDir(), id));
  await finishUpload(id);
  return id;
}

const ids = (page: { items: { id: number }[] }) => page.items.map((v) => v.id);

describe('a work from upload to publication', () => {
  it('publishes at once when the media was processed before the form was sent', async () => {
    const uploadId = await uploaded();
    expect((await getUpload(author.id, uploadId)).status).toBe('processing');
    expect(await processUpload(uploadId)).toBe('ready');
    const upload = await getUpload(author.id, uploadId);
    expect(upload).toMatchObject({ status: 'ready', width: 180, height: 320, workId: null });
    expect(upload.poster).toMatch(/^\/media\/works\/.+\.webp$/);
    const count = async () =>
      (await t.db.select({ n: users.awemeCount }).from(users).where(eq(users.id, author.id)))[0]!.n;
    const before = await count();

    const work = await createWork(author.id, {
      uploadId,
      title: `海边日落延时摄影 #海边日落 @${mentioned.nickname}`,
      channelId: 300208,
    });
    expect(work).toMatchObject({
      status: 'published',
      visibility: 'public',
      allowComments: true,
      channelId: 300208,
      fileName: '我的视频.mp4',
    });
    expect(work.hashtags).toEqual(['海边日落']);
    expect(await count()).toBe(before + 1);
    expect(work.cover).toBe(upload.poster);
    expect(work.renditions).toEqual([
      expect.objectContaining({
        gear: 540,
        width: 180,
        height: 320,
        url: expect.stringMatching(/^\/media\/works\/.+\/540\.mp4$/),
      }),
    ]);
    expect(existsSync(path.join(mediaDir(), work.renditions[0]!.url.replace('/media/', '')))).toBe(true);
    // Nothing of the source is left under uploads.
    expect(existsSync(path.join(uploadsDir(), uploadId))).toBe(false);

    // It is listed where its author's works are: 作品, 关注, its channel, search.
    expect(ids(await profileTab(author.id, 'post', {}, null))).toContain(work.id);
    expect(ids(await followFeed(fan))).toContain(work.id);
    expect(ids(await byChannel(300208, { count: 50 }))).toContain(work.id);
    expect(ids(await searchVideos('海边日落延时'))).toContain(work.id);
    const [tagged] = await t.db.select().from(videoHashtags).where(eq(videoHashtags.videoId, work.id));
    expect(tagged).toBeTruthy();
    const [notice] = await t.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, mentioned.id),
          eq(notifications.kind, 'mention'),
          eq(notifications.videoId, work.id),
        ),
      );
    expect(notice?.actorId).toBe(author.id);
  });

  it('publishes a processed upload at once with its own cover image, and drops the frame the worker made', async () => {
    const uploadId = await uploaded();
    expect(await processUpload(uploadId)).toBe('ready');
    const frame = (await getUpload(author.id, uploadId)).poster!.replace('/media/', '');
    const coverId = `cover${++serial}${Date.now().toString(36)}`;
    await registerUpload({ id: coverId, userId: author.id, kind: 'cover', fileName: 'cover.png', sizeBytes: 1 });
    copyFileSync(makeImage(dir, `${coverId}.png`), path.join(uploadsDir(), coverId));
    await finishUpload(coverId);

    const work = await createWork(author.id, {
      uploadId,
      title: '自选封面',
      channelId: 300201,
      coverUploadId: coverId,
    });
    expect(work).toMatchObject({ status: 'published', coverTime: null });
    expect(work.cover).toMatch(/^\/media\/works\/.+\.webp$/);
    expect(work.cover).not.toBe((await getUpload(author.id, uploadId)).poster);
    expect(existsSync(path.join(mediaDir(), work.cover.replace('/media/', '')))).toBe(true);
    // The worker's frame goes with a job.
    const { rows } = await t.pool.query<{ data: { keys: string[] } }>(
      `select data from pgboss.job where name = 'media-remove' and data->'keys' ? $1`,
      [frame],
    );
    expect(rows).toHaveLength(1);
  });

  it('keeps a work 处理中 and out of every list until its media is ready, then publishes it', async () => {
    const uploadId = await uploaded();
    const before = await t.db.select({ n: users.awemeCount }).from(users).where(eq(users.id, author.id));
    const work = await createWork(author.id, {
      uploadId,
      title: '还在处理的作品',
      channelId: 300203,
      coverTime: 1,
      visibility: 'public',
      allowComments: false,
    });
    expect(work).toMatchObject({ status: 'processing', allowComments: false, coverTime: 1, renditions: [] });
    expect(ids(await profileTab(author.id, 'post', {}, null))).not.toContain(work.id);
    expect(ids(await followFeed(fan))).not.toContain(work.id);

    expect(await processUpload(uploadId)).toBe('published');
    const done = await getWork(author.id, work.id);
    expect(done.status).toBe('published');
    expect(done.cover).toMatch(/poster-.+\.webp$/);
    expect(ids(await profileTab(author.id, 'post', {}, null))).toContain(work.id);
    const after = await t.db.select({ n: users.awemeCount }).from(users).where(eq(users.id, author.id));
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  it('refuses an unfinished, used or foreign upload, a bad title and a bad channel', async () => {
    const uploadId = await uploaded();
    await expect(createWork(author.id, { uploadId, title: '  ', channelId: 300201 })).rejects.toMatchObject({
      key: 'error.titleEmpty',
    });
    await expect(createWork(author.id, { uploadId, title: '标题', channelId: 123 })).rejects.toMatchObject({
      key: 'error.channelInvalid',
    });
    await expect(
      createWork(author.id, { uploadId, title: '标题', channelId: 300201, coverTime: 99 }),
    ).rejects.toMatchObject({ key: 'error.coverTime' });
    await expect(createWork(fan, { uploadId, title: '别人的', channelId: 300201 })).rejects.toMatchObject({
      key: 'error.uploadNotFound',
    });
    await createWork(author.id, { uploadId, title: '第一次', channelId: 300201 });
    await expect(createWork(author.id, { uploadId, title: '第二次', channelId: 300201 })).rejects.toMatchObject({
      key: 'error.uploadUsed',
    });

    await registerUpload({ id: 'still-coming', userId: author.id, kind: 'video', fileName: 'a.mp4', sizeBytes: 10 });
    await expect(
      createWork(author.id, { uploadId: 'still-coming', title: '标题', channelId: 300201 }),
    ).rejects.toMatchObject({
      key: 'error.uploadNotFinished',
    });
  });
});

describe('editing and deleting', () => {
  it('stores visibility, and a private work leaves the public lists but stays in the studio', async () => {
    const uploadId = await uploaded();
    await processUpload(uploadId);
    const work = await createWork(author.id, { uploadId, title: '可见性测试', channelId: 300204 });
    expect(ids(await byChannel(300204, { count: 50 }))).toContain(work.id);

    const edited = await editWork(author.id, {
      workId: work.id,
      visibility: 'private',
      title: '改过的标题 #新话题',
      channelId: 300205,
      coverTime: 1.5,
    });
    expect(edited).toMatchObject({
      visibility: 'private',
      title: '改过的标题 #新话题',
      channelId: 300205,
      coverTime: 1.5,
      hashtags: ['新话题'],
    });
    expect(edited.cover).not.toBe(work.cover);
    const [row] = await t.db.select({ visibility: videos.visibility }).from(videos).where(eq(videos.id, work.id));
    expect(row?.visibility).toBe('private');
    expect(ids(await byChannel(300205, { count: 50 }))).not.toContain(work.id);
    expect(ids(await listWorks(author.id, { count: 50 }))).toContain(work.id);

    await expect(editWork(fan, { workId: work.id, title: '别人的' })).rejects.toMatchObject({
      key: 'error.workNotFound',
    });
    await editWork(author.id, { workId: work.id, visibility: 'friends' });
    expect((await getWork(author.id, work.id)).visibility).toBe('friends');
  });

  it('deletes a work at once and gives back its counts; its files go with a job', async () => {
    const uploadId = await uploaded();
    await processUpload(uploadId);
    const work = await createWork(author.id, { uploadId, title: '要删除的作品', channelId: 300209 });
    const count = async () =>
      (await t.db.select({ n: users.awemeCount }).from(users).where(eq(users.id, author.id)))[0]!.n;
    const before = await count();
    await deleteWork(author.id, work.id);
    expect(await count()).toBe(before - 1);
    expect(ids(await profileTab(author.id, 'post', {}, null))).not.toContain(work.id);
    expect(ids(await listWorks(author.id, { count: 50 }))).not.toContain(work.id);
    await expect(getWork(author.id, work.id)).rejects.toMatchObject({ key: 'error.workNotFound' });
    const { rows } = await t.pool.query(
      `select data from pgboss.job where name = 'media-remove' and data->>'uploadId' = $1`,
      [uploadId],
    );
    expect(rows[0]?.data.prefixes).toEqual([`works/${uploadId}`]);
    await expect(deleteWork(author.id, work.id)).rejects.toMatchObject({ key: 'error.workNotFound' });
  });

  it('shows a processing failure as 未通过 with its reason', async () => {
    const uploadId = await uploaded();
    const work = await createWork(author.id, { uploadId, title: '会失败的作品', channelId: 300201 });
    await failUpload(uploadId);
    expect(await getWork(author.id, work.id)).toMatchObject({ status: 'rejected', reason: '视频处理失败，请重新上传' });
    expect(
      (await t.db.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, uploadId)))[0]?.status,
    ).toBe('rejected');
    expect(existsSync(path.join(uploadsDir(), uploadId))).toBe(false);
  });

  it('seeded works stay published, public and open to comments', async () => {
    const { rows } = await t.pool.query(`select count(*)::int as n from videos v
      where not exists (select 1 from uploads u where u.video_id = v.id) and (status <> 'published' or visibility <> 'public' or not allow_comments)`);
    expect(rows[0].n).toBe(0);
  });
});
