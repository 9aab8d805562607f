/**
 * The creator studio's works: made from a checked upload with a title, channel, cover and visibility; published when
 * the worker's media is ready (whichever comes last, the form or the media); listed, edited and deleted by their author.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { hashtagNames } from '../../shared/hashtag-text.ts';
import { replaceControlChars } from '../../shared/text-chars.ts';
import {
  TITLE_MAX,
  type CreateWorkInput,
  type EditWorkInput,
  type Gear,
  type StudioWork,
  type StudioWorkPage,
} from '../../shared/studio.ts';
import { db } from '../db/client.ts';
import { claimOnce, type OnceKey } from './idempotency.ts';
import type { DbOrTx } from '../db/types.ts';
import { hashtags, uploads, users, videoHashtags, videoRenditions, videos, type UploadOutputs } from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';
import { checkCover } from '../media/checks.ts';
import { gearSize } from '../media/ladder.ts';
import { isStudioMedia, uploadsDir, WORKS_DIR } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { extractPoster } from '../media/transcode.ts';
import { mediaUrl } from '../media-url.ts';
import { captionEngine } from '../captions/engine.ts';
import { invalid, notFound, ServiceError } from '../errors.ts';
import { cursorKey, finite } from './list-cursor.ts';
import { announceReplay } from './live-broadcasts.ts';
import { extractMentions, resolveMentions } from './mentions.ts';
import { notify } from './notifications.ts';
import { defaultRendition, laddersOf } from './renditions.ts';
import { tokenize } from './search-tokens.ts';
import { removeUploadFiles, uploadFiles } from './uploads.ts';
import { fromMicros, keyedPage, micros } from './video-cards.ts';
import { reindexVideoSearch } from './video-search.ts';
import { isChannel } from './videos.ts';
import { assertMayShowWork } from '../staff/holds.ts';
import { flagWatched } from '../staff/watched-words.ts';

/** Default and largest page of 作品管理. */
export const WORK_PAGE = 20;
const WORK_PAGE_MAX = 50;
/** Where a work's files live under the media root: one folder per upload, removed whole when the work is deleted. */
export const workPrefix = (uploadId: string) => `${WORKS_DIR}/${uploadId}`;

function checkTitle(title: string): string {
  // Control characters (NUL included, which PostgreSQL text refuses) never belong in a title.
  const clean = replaceControlChars(title, ' ').trim();
  if (clean === '') throw invalid('error.titleEmpty');
  if ([...clean].length > TITLE_MAX) throw invalid('error.titleTooLong', { max: TITLE_MAX });
  return clean;
}

function checkChannel(channelId: number): number {
  if (!isChannel(channelId)) throw invalid('error.channelInvalid');
  return channelId;
}

function checkCoverTime(seconds: number, durationMs: number): number {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds * 1000 > durationMs) throw invalid('error.coverTime');
  return seconds;
}

const conflict = (key: MessageKey) => new ServiceError('conflict', key);
const stamp = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const scratch = (name: string) => path.join(uploadsDir(), `${name}-${stamp()}.webp`);

/** Replaces a video's hashtags with those its title names (creating new hashtags as needed). */
async function setHashtags(tx: DbOrTx, videoId: number, title: string, { fresh = false } = {}): Promise<void> {
  // A work made in this transaction has none to replace.
  if (!fresh) await tx.delete(videoHashtags).where(eq(videoHashtags.videoId, videoId));
  const names = hashtagNames(title);
  if (names.length === 0) return;
  await tx
    .insert(hashtags)
    .values(names.map((name) => ({ name })))
    .onConflictDoNothing();
  const rows = await tx.select({ id: hashtags.id }).from(hashtags).where(inArray(hashtags.name, names));
  await tx
    .insert(videoHashtags)
    .values(rows.map((r) => ({ videoId, hashtagId: r.id })))
    .onConflictDoNothing();
}

/** Search tokens as the seed stores them: the title (hashtags included) and the author's nickname. */
async function searchTokensFor(tx: DbOrTx, authorId: number, title: string): Promise<string[]> {
  const [author] = await tx.select({ nickname: users.nickname }).from(users).where(eq(users.id, authorId));
  return tokenize(`${title} ${author?.nickname ?? ''}`);
}

/** Notifies the users a published work's title mentions (all but `already`), unless only its author may see it. */
async function notifyMentions(
  tx: DbOrTx,
  v: { id: number; authorId: number; desc: string; visibility: string },
  already: string[] = [],
): Promise<void> {
  if (v.visibility === 'private') return;
  const names = extractMentions(v.desc).filter((n) => !already.includes(n));
  for (const user of await resolveMentions(names, tx)) {
    await notify(tx, { userId: user.id, actorId: v.authorId, kind: 'mention', videoId: v.id, text: v.desc });
  }
}

/** Turns a checked cover image upload of `userId` into the work's WebP poster; returns its media key. */
export async function coverFromUpload(userId: number, coverUploadId: string, prefix: string): Promise<string> {
  const [cover] = await db()
    .select({ status: uploads.status, kind: uploads.kind })
    .from(uploads)
    .where(and(eq(uploads.id, coverUploadId), eq(uploads.userId, userId)));
  if (!cover || cover.kind !== 'cover') throw notFound('error.uploadNotFound');
  if (cover.status !== 'ready') throw invalid('error.coverNotImage');
  const { data } = uploadFiles(coverUploadId);
  const info = await checkCover(data);
  const out = scratch(coverUploadId);
  // A cover is shown at most as large as a 720 rendition's frame.
  const size = gearSize(info.width, info.height, 720);
  await extractPoster(data, 0, 0, size, out);
  const key = `${prefix}/cover-${stamp()}.webp`;
  await mediaStore().put(out, key);
  await removeUploadFiles(coverUploadId);
  await db().delete(uploads).where(eq(uploads.id, coverUploadId));
  return key;
}

/** A WebP poster of a processed upload's frame at `atSec`, cut from its smallest rendition; returns its media key. */
async function framePoster(uploadId: string, outputs: UploadOutputs, atSec: number): Promise<string> {
  const smallest = [...outputs.renditions].sort((a, b) => a.gear - b.gear)[0]!;
  const store = mediaStore();
  const source = await store.open(smallest.path);
  const out = scratch(uploadId);
  try {
    await extractPoster(
      source.file,
      atSec,
      outputs.durationMs,
      { width: smallest.width, height: smallest.height },
      out,
    );
  } finally {
    await source.release();
  }
  const key = `${workPrefix(uploadId)}/poster-${stamp()}.webp`;
  await store.put(out, key);
  return key;
}

/** Old media of a work that nothing points at any more, deleted by the media job (never a seeded file). */
async function dropMedia(keys: (string | null | undefined)[], tx: DbOrTx): Promise<void> {
  const owned = keys.filter((k): k is string => !!k && isStudioMedia(k));
  if (owned.length > 0) await enqueue(QUEUES.removeMedia, { keys: owned }, { tx });
}

/** Creates a work from a finished video upload of `userId`; it is published as soon as its media is ready. */
export async function createWork(userId: number, input: CreateWorkInput, once?: OnceKey): Promise<StudioWork> {
  const title = checkTitle(input.title);
  const channelId = checkChannel(input.channelId);
  const [upload] = await db()
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, input.uploadId), eq(uploads.userId, userId), eq(uploads.kind, 'video')));
  if (!upload) throw notFound('error.uploadNotFound');
  if (upload.status === 'uploading') throw conflict('error.uploadNotFinished');
  // Swept before it was finished: never checked, so not 未通过检查.
  if (upload.status === 'rejected' && upload.reason === 'error.uploadExpired') throw invalid('error.uploadExpired');
  if (upload.status === 'rejected') {
    throw invalid('error.uploadRejected', {
      reason: upload.reason ? t(upload.reason as MessageKey, upload.reasonVars ?? undefined) : '',
    });
  }
  if (upload.videoId !== null) throw conflict('error.uploadUsed');
  const durationMs = upload.durationMs ?? 0;
  const coverTime = input.coverTime === undefined ? 0 : checkCoverTime(input.coverTime, durationMs);
  const customCover = input.coverUploadId
    ? await coverFromUpload(userId, input.coverUploadId, workPrefix(upload.id))
    : null;

  // The media was processed before the form came and the poster needs no frame cut: the work is published in the
  // transaction that makes it, without a second one to update its row (every index of videos written twice).
  const outputs = upload.status === 'ready' ? upload.outputs : null;
  const play = outputs && (customCover || samePoster(coverTime, outputs)) && defaultRendition(outputs.renditions);
  const ready = play ? outputs : null;
  const videoId = await db().transaction(async (tx) => {
    const [locked] = await tx
      .select({ videoId: uploads.videoId })
      .from(uploads)
      .where(eq(uploads.id, upload.id))
      .for('update');
    if (!locked || locked.videoId !== null) throw conflict('error.uploadUsed');
    const [row] = await tx
      .insert(videos)
      .values({
        authorId: userId,
        channelId,
        desc: title,
        visibility: input.visibility ?? 'public',
        allowComments: input.allowComments ?? true,
        coverTime: customCover ? null : coverTime,
        searchTokens: await searchTokensFor(tx, userId, title),
        ...(ready && play
          ? {
              status: 'published' as const,
              media: play.path,
              poster: customCover ?? ready.poster,
              durationMs: ready.durationMs,
              width: ready.width,
              height: ready.height,
              sizeBytes: Math.min(play.sizeBytes, 2_147_483_647),
            }
          : {
              status: 'processing' as const,
              media: '',
              poster: customCover ?? '',
              durationMs,
              width: upload.width ?? 0,
              height: upload.height ?? 0,
              sizeBytes: Math.min(upload.sizeBytes, 2_147_483_647),
            }),
      })
      .returning({ id: videos.id, authorId: videos.authorId, desc: videos.desc, visibility: videos.visibility });
    await claimOnce(tx, once, row!.id);
    await setHashtags(tx, row!.id, title, { fresh: true });
    await tx
      .update(uploads)
      .set({ videoId: row!.id, updatedAt: sql`now()` })
      .where(eq(uploads.id, upload.id));
    // No live room can name a work made in this transaction as its 回放 yet: nothing to announce.
    if (ready) await published(tx, row!, ready, customCover ?? ready.poster);
    return row!.id;
  });
  if (!ready) await publishUpload(upload.id);
  await flagWatched('video', videoId, title);
  return getWork(userId, videoId);
}

/** Whether the worker's poster shows the frame at `coverTime` (seconds): then no frame is cut for the cover. */
const samePoster = (coverTime: number, outputs: UploadOutputs) => Math.abs(coverTime - outputs.posterAt) < 0.001;

/**
 * What publishing a work does besides its row's status and media, in the transaction that publishes it: its
 * renditions, its author's 作品 count, the notices of the users its title mentions, its captions' job, and the
 * worker's poster dropped when the creator chose another (`poster`).
 */
async function published(
  tx: DbOrTx,
  v: { id: number; authorId: number; desc: string; visibility: string },
  outputs: UploadOutputs,
  poster: string,
): Promise<void> {
  await tx
    .insert(videoRenditions)
    .values(outputs.renditions.map((r) => ({ videoId: v.id, ...r })))
    .onConflictDoNothing();
  await tx
    .update(users)
    .set({ awemeCount: sql`${users.awemeCount} + 1` })
    .where(eq(users.id, v.authorId));
  await notifyMentions(tx, v);
  // Captions by the engine, when one is configured: after the commit, from the published media.
  if (captionEngine()) await enqueue(QUEUES.autoCaptions, { videoId: v.id }, { tx, key: String(v.id) });
  if (poster !== outputs.poster) await dropMedia([outputs.poster], tx);
}

/**
 * Publishes the work of an upload once both exist: the media (the worker's outputs) and the work (the creator's
 * form). Called by each side when it is done, so whichever comes last publishes. True when it published now.
 */
export async function publishUpload(uploadId: string): Promise<boolean> {
  // A concurrent cover edit makes the poster cut here stale: try again with the new time.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await db()
      .select({
        outputs: uploads.outputs,
        videoId: videos.id,
        status: videos.status,
        coverTime: videos.coverTime,
        poster: videos.poster,
      })
      .from(uploads)
      .innerJoin(videos, and(eq(videos.id, uploads.videoId), isNull(videos.deletedAt)))
      .where(eq(uploads.id, uploadId));
    if (!row?.outputs || row.status !== 'processing') return false;
    const outputs = row.outputs;
    let poster = row.poster || outputs.poster;
    let cut: string | undefined;
    if (row.coverTime !== null) {
      poster = samePoster(row.coverTime, outputs)
        ? outputs.poster
        : (cut = await framePoster(uploadId, outputs, row.coverTime));
    }
    const play = defaultRendition(outputs.renditions)!;
    const result = await db().transaction(async (tx) => {
      const [v] = await tx.select().from(videos).where(eq(videos.id, row.videoId)).for('update');
      if (!v || v.deletedAt || v.status !== 'processing') return 'gone' as const;
      if (v.coverTime !== row.coverTime || (v.coverTime === null && v.poster !== row.poster)) return 'changed' as const;
      await tx
        .update(videos)
        .set({
          status: 'published',
          media: play.path,
          poster,
          durationMs: outputs.durationMs,
          width: outputs.width,
          height: outputs.height,
          sizeBytes: Math.min(play.sizeBytes, 2_147_483_647),
          // Published now: followers' 关注 feed and the profile order by this time.
          createdAt: sql`now()`,
        })
        .where(eq(videos.id, v.id));
      await published(tx, v, outputs, poster);
      // A broadcast's recording: its room now links the 回放.
      await announceReplay(tx, v.id);
      return 'published' as const;
    });
    if (result === 'published') return true;
    if (cut) await mediaStore().remove([cut]);
    if (result === 'gone') return false;
  }
  return false;
}

/** Marks an upload that processing gave up on, and its work if it has one, 未通过 with `reason`. */
export async function failUpload(uploadId: string, reason: MessageKey = 'error.uploadProcessFailed'): Promise<void> {
  await db().transaction(async (tx) => {
    const [u] = await tx
      .update(uploads)
      .set({ status: 'rejected', reason, reasonVars: null, updatedAt: sql`now()` })
      .where(and(eq(uploads.id, uploadId), inArray(uploads.status, ['uploading', 'processing'])))
      .returning({ videoId: uploads.videoId });
    if (u?.videoId) {
      await tx
        .update(videos)
        .set({ status: 'rejected' })
        .where(and(eq(videos.id, u.videoId), eq(videos.status, 'processing')));
    }
  });
  await removeUploadFiles(uploadId);
}

const workColumns = {
  id: videos.id,
  // The works list's key: created_at to the microsecond.
  at: micros(videos.createdAt),
  desc: videos.desc,
  channelId: videos.channelId,
  visibility: videos.visibility,
  allowComments: videos.allowComments,
  status: videos.status,
  poster: videos.poster,
  coverTime: videos.coverTime,
  durationMs: videos.durationMs,
  width: videos.width,
  height: videos.height,
  sizeBytes: videos.sizeBytes,
  playCount: videos.playCount,
  diggCount: videos.diggCount,
  commentCount: videos.commentCount,
  shareCount: videos.shareCount,
  collectCount: videos.collectCount,
  createdAt: videos.createdAt,
  fileName: uploads.fileName,
  reason: uploads.reason,
  reasonVars: uploads.reasonVars,
  uploadPoster: sql<string | null>`${uploads.outputs} ->> 'poster'`,
};

function selectWorks(userId: number, workId?: number, where?: SQL) {
  return db()
    .select(workColumns)
    .from(videos)
    .leftJoin(uploads, eq(uploads.videoId, videos.id))
    .where(
      and(
        eq(videos.authorId, userId),
        isNull(videos.deletedAt),
        workId === undefined ? undefined : eq(videos.id, workId),
        where,
      ),
    )
    .$dynamic();
}

type WorkRow = Awaited<ReturnType<typeof selectWorks>>[number];

async function toWorks(rows: WorkRow[]): Promise<StudioWork[]> {
  const ladders = await laddersOf(rows.filter((r) => r.status === 'published').map((r) => r.id));
  return rows.map((r) => {
    const poster = r.poster || r.uploadPoster;
    return {
      id: r.id,
      title: r.desc,
      hashtags: hashtagNames(r.desc),
      channelId: r.channelId,
      visibility: r.visibility,
      allowComments: r.allowComments,
      status: r.status,
      reason: r.status === 'rejected' && r.reason ? t(r.reason as MessageKey, r.reasonVars ?? undefined) : null,
      cover: poster ? mediaUrl(poster) : '',
      coverTime: r.coverTime,
      fileName: r.fileName ?? '',
      durationMs: r.durationMs,
      width: r.width,
      height: r.height,
      sizeBytes: r.sizeBytes,
      playCount: r.playCount,
      diggCount: r.diggCount,
      commentCount: r.commentCount,
      shareCount: r.shareCount,
      collectCount: r.collectCount,
      createTime: r.createdAt.getTime(),
      renditions: (ladders.get(r.id) ?? []).map((x) => ({
        gear: x.gear as Gear,
        width: x.width,
        height: x.height,
        bitRate: x.bitRate,
        sizeBytes: x.sizeBytes,
        url: mediaUrl(x.path),
      })),
    };
  });
}

/** The author's works, newest first, every status, from the cursor (the last work's time and id). */
export async function listWorks(
  userId: number,
  page: { cursor?: string; count?: number } = {},
): Promise<StudioWorkPage> {
  const limit = Math.min(Math.max(Math.trunc(page.count ?? WORK_PAGE), 1), WORK_PAGE_MAX);
  const key = cursorKey(page.cursor, 'works', 2);
  const rows = await selectWorks(
    userId,
    undefined,
    key ? sql`(${videos.createdAt}, ${videos.id}) < (${fromMicros(key[0]!)}, ${finite(key[1]!)}::bigint)` : undefined,
  )
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(limit + 1);
  const p = keyedPage(rows, limit, 'works', (r) => [r.at, r.id], page);
  return { items: await toWorks(p.items), cursor: p.cursor, hasMore: p.hasMore };
}

/** One work of its author; not found for anyone else. */
export async function getWork(userId: number, workId: number): Promise<StudioWork> {
  const rows = await selectWorks(userId, workId);
  const [work] = await toWorks(rows);
  if (!work) throw notFound('error.workNotFound');
  return work;
}

/**
 * Changes a work's title, channel, cover, visibility or comment switch; only its author may, and never shows a work a
 * moderator removed or that a ban hid.
 */
export async function editWork(userId: number, input: EditWorkInput): Promise<StudioWork> {
  const [current] = await db()
    .select({ status: videos.status, durationMs: videos.durationMs, uploadId: uploads.id, outputs: uploads.outputs })
    .from(videos)
    .leftJoin(uploads, eq(uploads.videoId, videos.id))
    .where(and(eq(videos.id, input.workId), eq(videos.authorId, userId), isNull(videos.deletedAt)));
  if (!current) throw notFound('error.workNotFound');
  const title = input.title === undefined ? undefined : checkTitle(input.title);
  const channelId = input.channelId === undefined ? undefined : checkChannel(input.channelId);
  const coverTime = input.coverTime === undefined ? undefined : checkCoverTime(input.coverTime, current.durationMs);
  const prefix = workPrefix(current.uploadId ?? `v${input.workId}`);

  // The new poster is made before the transaction (ffmpeg takes a moment); a work still processing gets its frame
  // when it is published.
  let poster: string | undefined;
  if (input.coverUploadId) poster = await coverFromUpload(userId, input.coverUploadId, prefix);
  else if (coverTime !== undefined && current.status === 'published' && current.uploadId && current.outputs) {
    poster = await framePoster(current.uploadId, current.outputs, coverTime);
  }

  await db().transaction(async (tx) => {
    const [v] = await tx
      .select()
      .from(videos)
      .where(and(eq(videos.id, input.workId), isNull(videos.deletedAt)))
      .for('update');
    if (!v) throw notFound('error.workNotFound');
    if (input.visibility !== undefined && input.visibility !== 'private' && input.visibility !== v.visibility)
      await assertMayShowWork(tx, v.id, v.authorId);
    const changes: Partial<typeof videos.$inferInsert> = {};
    if (title !== undefined && title !== v.desc) {
      changes.desc = title;
      await setHashtags(tx, v.id, title);
    }
    if (channelId !== undefined) changes.channelId = channelId;
    if (input.visibility !== undefined) changes.visibility = input.visibility;
    if (input.allowComments !== undefined) changes.allowComments = input.allowComments;
    if (input.coverUploadId) Object.assign(changes, { poster, coverTime: null });
    else if (coverTime !== undefined) Object.assign(changes, poster ? { poster, coverTime } : { coverTime });
    if (Object.keys(changes).length === 0) return;
    await tx.update(videos).set(changes).where(eq(videos.id, v.id));
    // The new title with the author's name and the captions: what the work is found by.
    if (changes.desc !== undefined) await reindexVideoSearch(tx, { ids: [v.id] });
    if (poster && v.poster !== poster) await dropMedia([v.poster], tx);
    if (v.status === 'published') {
      const next = {
        id: v.id,
        authorId: v.authorId,
        desc: changes.desc ?? v.desc,
        visibility: changes.visibility ?? v.visibility,
      };
      // Users the old title already named (and could see) were told then.
      await notifyMentions(tx, next, v.visibility === 'private' ? [] : extractMentions(v.desc));
    }
  });
  if (title !== undefined) await flagWatched('video', input.workId, title);
  return getWork(userId, input.workId);
}

/**
 * Deletes a work at once (it leaves every list and its counts leave the author's and its fans' totals); its files are
 * removed by the media job.
 */
export async function deleteWork(userId: number, workId: number): Promise<void> {
  await db().transaction(async (tx) => {
    const [v] = await tx
      .select()
      .from(videos)
      .where(and(eq(videos.id, workId), eq(videos.authorId, userId), isNull(videos.deletedAt)))
      .for('update');
    if (!v) throw notFound('error.workNotFound');
    await tx
      .update(videos)
      .set({ deletedAt: sql`now()` })
      .where(eq(videos.id, v.id));
    if (v.status === 'published') {
      // The same counters recount.ts derives, which skip deleted videos; users locked in id order, as elsewhere.
      await tx.execute(sql`
        with touched as (
          select u.id,
                 (u.id = ${v.authorId})::int as author,
                 (exists (select 1 from likes l where l.video_id = ${v.id} and l.user_id = u.id))::int as liked,
                 (exists (select 1 from collects c where c.video_id = ${v.id} and c.user_id = u.id))::int as collected
            from users u
           where u.id = ${v.authorId}
              or u.id in (select user_id from likes where video_id = ${v.id})
              or u.id in (select user_id from collects where video_id = ${v.id})
           order by u.id
             for update
        )
        update users set
          aweme_count = aweme_count - touched.author,
          total_favorited = total_favorited - touched.author * ${v.diggCount},
          favoriting_count = favoriting_count - touched.liked,
          collect_count = collect_count - touched.collected
        from touched where users.id = touched.id`);
    }
    // A job still encoding this upload finds it refused and throws its output away.
    const [u] = await tx
      .update(uploads)
      .set({
        status: sql`case when ${uploads.status} in ('uploading', 'processing') then 'rejected' else ${uploads.status} end`,
        updatedAt: sql`now()`,
      })
      .where(eq(uploads.videoId, v.id))
      .returning({ id: uploads.id });
    if (u) await enqueue(QUEUES.removeMedia, { prefixes: [workPrefix(u.id)], uploadId: u.id }, { tx });
  });
}
