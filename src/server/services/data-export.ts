/**
 * 下载我的数据: a job gathers a member's data into one ZIP (yazl, streamed to disk): the profile, their works with
 * their media files and captions, comments, danmaku, messages of their chats, likes, collects (works and sounds),
 * follows, watch history (works, profiles visited, live rooms), search history, blocks, what they told the feed
 * (不感兴趣, 减少此类, 屏蔽) and settings, as JSON beside the files. The ZIP waits in a private folder (never under the
 * public media root) for 24 hours; only its owner may download it, anyone else is told it does not exist.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import yazl from 'yazl';
import { EXPORT_VALID_HOURS, exportDownloadPath, type DataExportView } from '../../shared/account.ts';
import { db } from '../db/client.ts';
import {
  blocks,
  collects,
  comments,
  conversations,
  conversationSettings,
  danmaku,
  dataExports,
  feedLess,
  follows,
  likes,
  liveRooms,
  liveWatchHistory,
  messageHides,
  messages,
  musicCollects,
  mutes,
  notInterested,
  profileVisits,
  searchLog,
  users,
  videoCaptions,
  videoRenditions,
  videos,
  watchHistory,
  watchLater,
} from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';
import { uploadsDir } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { logLine } from '../log.ts';
import { notFound, ServiceError } from '../errors.ts';
import { notifyExportReady } from './notifications.ts';
import { enforce } from './rate-limit.ts';

/** Exports one member may ask for per day (each one reads all their media). */
export const EXPORT_RATE = { limit: 3, windowMs: 86_400_000 };
const VALID_MS = EXPORT_VALID_HOURS * 3_600_000;

/** The private folder of built exports: beside the uploads, which every app server and worker shares. */
export function exportsDir(): string {
  return path.join(uploadsDir(), 'exports');
}

type Row = typeof dataExports.$inferSelect;

const view = (r: Row): DataExportView => ({
  id: r.id,
  status: r.status,
  sizeBytes: r.sizeBytes,
  expireTime: r.expiresAt?.getTime() ?? null,
  url: r.status === 'ready' ? exportDownloadPath(r.id) : null,
});

/** The member's newest export that has not expired, or null. */
export async function latestExport(userId: number): Promise<DataExportView | null> {
  const [row] = await db()
    .select()
    .from(dataExports)
    .where(
      and(eq(dataExports.userId, userId), or(isNull(dataExports.expiresAt), gt(dataExports.expiresAt, sql`now()`))),
    )
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(1);
  return row ? view(row) : null;
}

/** Starts a new export for the member (one at a time); the job tells them when it is ready. */
export async function requestExport(userId: number): Promise<DataExportView> {
  await enforce(`export:${userId}`, EXPORT_RATE.limit, EXPORT_RATE.windowMs);
  const row = await db().transaction(async (tx) => {
    // One member's requests one after another: two at once would both see no export in progress.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`export:${userId}`}, 0))`);
    const [busy] = await tx
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'pending')));
    if (busy) throw new ServiceError('conflict', 'error.exportBusy');
    const [created] = await tx.insert(dataExports).values({ userId }).returning();
    await enqueue(QUEUES.dataExport, { exportId: created!.id }, { tx, key: String(created!.id) });
    return created!;
  });
  return view(row);
}

/** The built ZIP of export `id` if `viewerId` owns it and it has not expired; 404 (as if it never existed) otherwise. */
export async function openExport(viewerId: number, id: number): Promise<{ file: string; size: number; name: string }> {
  const [row] = await db()
    .select()
    .from(dataExports)
    .where(
      and(
        eq(dataExports.id, id),
        eq(dataExports.userId, viewerId),
        eq(dataExports.status, 'ready'),
        gt(dataExports.expiresAt, sql`now()`),
      ),
    );
  const file = row?.file ? path.join(exportsDir(), row.file) : null;
  const stats = file ? await stat(file).catch(() => null) : null;
  if (!row || !file || !stats?.isFile()) throw notFound('error.exportNotFound');
  const day = row.createdAt.toISOString().slice(0, 10);
  return { file, size: stats.size, name: `shanying-data-${day}-${row.id}.zip` };
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
const iso = (d: Date | null) => d?.toISOString() ?? null;
const ext = (key: string) => path.extname(key) || '';

/** Everything of `userId` the ZIP holds, as named JSON documents, and the media files to copy in. */
async function gather(userId: number) {
  const q = db();
  const [profile] = await q.select().from(users).where(eq(users.id, userId));
  if (!profile) return null;
  const works = await q
    .select()
    .from(videos)
    .where(and(eq(videos.authorId, userId), isNull(videos.deletedAt)))
    .orderBy(asc(videos.id));
  const ids = works.map((w) => w.id);
  const [renditions, captions] = ids.length
    ? await Promise.all([
        q.select().from(videoRenditions).where(inArray(videoRenditions.videoId, ids)),
        q.select().from(videoCaptions).where(inArray(videoCaptions.videoId, ids)),
      ])
    : [[], []];

  const files: { key: string; name: string }[] = [];
  const profileFiles = {
    avatar: `profile/avatar${ext(profile.avatar)}`,
    banner: `profile/banner${ext(profile.banner)}`,
  };
  files.push({ key: profile.avatar, name: profileFiles.avatar }, { key: profile.banner, name: profileFiles.banner });
  const workDocs = works.map((w) => {
    const dir = `works/${w.id}`;
    const ladder = renditions.filter((r) => r.videoId === w.id);
    const media = ladder.length
      ? ladder.map((r) => ({ key: r.path, name: `${dir}/${r.gear}p.mp4` }))
      : w.media
        ? [{ key: w.media, name: `${dir}/video${ext(w.media)}` }]
        : [];
    const cover = w.poster ? [{ key: w.poster, name: `${dir}/cover${ext(w.poster)}` }] : [];
    const track = captions.find((c) => c.videoId === w.id);
    const caption = track ? [{ key: track.file, name: `${dir}/captions.vtt` }] : [];
    files.push(...media, ...cover, ...caption);
    return {
      id: w.id,
      title: w.desc,
      channelId: w.channelId,
      visibility: w.visibility,
      status: w.status,
      allowComments: w.allowComments,
      durationMs: w.durationMs,
      createdAt: iso(w.createdAt),
      stats: {
        plays: w.playCount,
        likes: w.diggCount,
        comments: w.commentCount,
        collects: w.collectCount,
        shares: w.shareCount,
      },
      files: [...media, ...cover, ...caption].map((f) => f.name),
      captions: track ? { source: track.source, lang: track.lang, cues: track.cues } : null,
    };
  });

  const chats = await q
    .select()
    .from(conversations)
    .where(or(eq(conversations.userA, userId), eq(conversations.userB, userId)))
    .orderBy(asc(conversations.id));
  const peers = new Map(
    (
      await (chats.length
        ? q
            .select({ id: users.id, nickname: users.nickname, secUid: users.secUid })
            .from(users)
            .where(
              inArray(
                users.id,
                chats.map((c) => (c.userA === userId ? c.userB : c.userA)),
              ),
            )
        : Promise.resolve([]))
    ).map((u) => [u.id, u]),
  );
  const chatDocs = [];
  for (const c of chats) {
    const [setting] = await q
      .select({ clearedAt: conversationSettings.clearedAt })
      .from(conversationSettings)
      .where(and(eq(conversationSettings.conversationId, c.id), eq(conversationSettings.userId, userId)));
    // What the member still has of the chat: not deleted, not hidden by them, not cleared by them.
    const lines = await q
      .select({ id: messages.id, senderId: messages.senderId, text: messages.text, createdAt: messages.createdAt })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, c.id),
          isNull(messages.deletedAt),
          setting?.clearedAt ? gt(messages.createdAt, setting.clearedAt) : undefined,
          sql`not exists (select 1 from ${messageHides} h where h.message_id = ${messages.id} and h.user_id = ${userId})`,
        ),
      )
      .orderBy(asc(messages.createdAt), asc(messages.id));
    const peer = peers.get(c.userA === userId ? c.userB : c.userA);
    chatDocs.push({
      conversationId: c.id,
      with: peer ? { nickname: peer.nickname, secUid: peer.secUid } : null,
      messages: lines.map((m) => ({ id: m.id, fromMe: m.senderId === userId, text: m.text, sentAt: iso(m.createdAt) })),
    });
  }

  const videoRef = { id: videos.id, title: videos.desc };
  const visited = alias(users, 'visited');
  const [
    myComments,
    myDanmaku,
    liked,
    collected,
    later,
    history,
    following,
    followers,
    searches,
    blocked,
    sounds,
    profilesSeen,
    roomsSeen,
    notForMe,
    lessOf,
    muted,
  ] = await Promise.all([
    q
      .select({
        id: comments.id,
        videoId: comments.videoId,
        replyTo: comments.parentId,
        text: comments.text,
        createdAt: comments.createdAt,
      })
      .from(comments)
      .where(and(eq(comments.userId, userId), isNull(comments.deletedAt)))
      .orderBy(asc(comments.id)),
    q
      .select({
        videoId: danmaku.videoId,
        text: danmaku.text,
        offsetMs: danmaku.offsetMs,
        createdAt: danmaku.createdAt,
      })
      .from(danmaku)
      .where(eq(danmaku.userId, userId))
      .orderBy(asc(danmaku.id)),
    q
      .select({ ...videoRef, at: likes.createdAt })
      .from(likes)
      .innerJoin(videos, eq(videos.id, likes.targetId))
      .where(eq(likes.userId, userId)),
    q
      .select({ ...videoRef, at: collects.createdAt })
      .from(collects)
      .innerJoin(videos, eq(videos.id, collects.targetId))
      .where(eq(collects.userId, userId)),
    q
      .select({ ...videoRef, at: watchLater.createdAt })
      .from(watchLater)
      .innerJoin(videos, eq(videos.id, watchLater.targetId))
      .where(eq(watchLater.userId, userId)),
    q
      .select({ ...videoRef, progressMs: watchHistory.progressMs, at: watchHistory.watchedAt })
      .from(watchHistory)
      .innerJoin(videos, eq(videos.id, watchHistory.videoId))
      .where(eq(watchHistory.userId, userId))
      .orderBy(desc(watchHistory.watchedAt)),
    q
      .select({ nickname: users.nickname, secUid: users.secUid, at: follows.createdAt })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followeeId))
      .where(eq(follows.followerId, userId)),
    q
      .select({ nickname: users.nickname, secUid: users.secUid, at: follows.createdAt })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followerId))
      .where(eq(follows.followeeId, userId)),
    q
      .select({ query: searchLog.query, at: searchLog.createdAt })
      .from(searchLog)
      .where(eq(searchLog.userId, userId))
      .orderBy(desc(searchLog.id)),
    q
      .select({ nickname: users.nickname, secUid: users.secUid, at: blocks.createdAt })
      .from(blocks)
      .innerJoin(users, eq(users.id, blocks.blockedId))
      .where(eq(blocks.blockerId, userId)),
    q
      .select({ ...videoRef, at: musicCollects.createdAt })
      .from(musicCollects)
      .innerJoin(videos, eq(videos.id, musicCollects.targetId))
      .where(eq(musicCollects.userId, userId)),
    q
      .select({ nickname: visited.nickname, secUid: visited.secUid, at: profileVisits.visitedAt })
      .from(profileVisits)
      .innerJoin(visited, eq(visited.id, profileVisits.userId))
      .where(eq(profileVisits.viewerId, userId))
      .orderBy(desc(profileVisits.visitedAt)),
    q
      .select({ roomId: liveRooms.id, title: liveRooms.title, at: liveWatchHistory.watchedAt })
      .from(liveWatchHistory)
      .innerJoin(liveRooms, eq(liveRooms.id, liveWatchHistory.roomId))
      .where(eq(liveWatchHistory.userId, userId))
      .orderBy(desc(liveWatchHistory.watchedAt)),
    q
      .select({ ...videoRef, at: notInterested.createdAt })
      .from(notInterested)
      .innerJoin(videos, eq(videos.id, notInterested.targetId))
      .where(eq(notInterested.userId, userId)),
    q
      .select({ kind: feedLess.kind, id: feedLess.targetId, at: feedLess.createdAt })
      .from(feedLess)
      .where(eq(feedLess.userId, userId))
      .orderBy(desc(feedLess.createdAt)),
    q
      .select({
        kind: mutes.kind,
        value: mutes.value,
        nickname: users.nickname,
        secUid: users.secUid,
        at: mutes.createdAt,
      })
      .from(mutes)
      .leftJoin(users, eq(users.id, mutes.authorId))
      .where(eq(mutes.userId, userId))
      .orderBy(asc(mutes.id)),
  ]);
  const when = <T extends { at: Date }>(rows: T[]) => rows.map(({ at, ...r }) => ({ ...r, at: iso(at) }));

  const documents: Record<string, unknown> = {
    'profile.json': {
      uid: profile.id,
      secUid: profile.secUid,
      nickname: profile.nickname,
      signature: profile.signature,
      email: profile.email,
      gender: profile.gender,
      birthday: profile.birthday,
      ipProvince: profile.ipProvince,
      createdAt: iso(profile.createdAt),
      counts: {
        following: profile.followingCount,
        followers: profile.followerCount,
        works: profile.awemeCount,
        likesReceived: profile.totalFavorited,
      },
      files: profileFiles,
    },
    'works.json': workDocs,
    'comments.json': myComments.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    'danmaku.json': myDanmaku.map((d) => ({ ...d, createdAt: iso(d.createdAt) })),
    'messages.json': chatDocs,
    'likes.json': when(liked),
    'collects.json': { works: when(collected), sounds: when(sounds) },
    'watch_later.json': when(later),
    'watch_history.json': { works: when(history), profiles: when(profilesSeen), live: when(roomsSeen) },
    'follows.json': { following: when(following), followers: when(followers) },
    'search_history.json': when(searches),
    'blocks.json': when(blocked),
    // 不感兴趣 (works), 减少此类 (a channel or an author, by id) and 屏蔽 (keywords, hashtags, and authors by name).
    'feed_preferences.json': {
      notInterested: when(notForMe),
      less: when(lessOf),
      mutes: when(muted).map(({ kind, value, nickname, secUid, at }) =>
        kind === 'author' ? { kind, nickname, secUid, at } : { kind, value, at },
      ),
    },
    'settings.json': { privacy: profile.privacy, notifications: profile.notifySettings },
  };
  return { documents, files };
}

/** Writes the ZIP of `userId`'s data to `out`; answers the media keys it could not read (left out, named in the log). */
async function writeZip(userId: number, out: string): Promise<string[] | null> {
  const data = await gather(userId);
  if (!data) return null;
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  for (const [name, value] of Object.entries(data.documents)) zip.addBuffer(json(value), name, { mtime });
  const store = mediaStore();
  const opened: { release: () => Promise<void> }[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const f of data.files) {
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    const head = await store.head(f.key).catch(() => null);
    if (!head) {
      missing.push(f.key);
      continue;
    }
    const media = await store.open(f.key);
    opened.push(media);
    // Video and pictures are compressed already.
    zip.addFile(media.file, f.name, { mtime, compress: false });
  }
  zip.end();
  try {
    await pipeline(zip.outputStream, createWriteStream(out));
  } finally {
    await Promise.all(opened.map((m) => m.release()));
  }
  return missing;
}

/** The job: builds export `exportId`, marks it ready for 24 h and tells its owner. Answers what happened. */
export async function buildExport(exportId: number): Promise<'ready' | 'gone'> {
  const [row] = await db()
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
  if (!row) return 'gone';
  await mkdir(exportsDir(), { recursive: true });
  const name = `${row.id}-${randomBytes(16).toString('hex')}.zip`;
  const file = path.join(exportsDir(), name);
  const missing = await writeZip(row.userId, file);
  if (missing === null) {
    await rm(file, { force: true });
    return 'gone';
  }
  if (missing.length) logLine('warn', 'export: media missing from the store', { exportId, keys: missing.length });
  const { size } = await stat(file);
  const stored = await db().transaction(async (tx) => {
    const [done] = await tx
      .update(dataExports)
      .set({
        status: 'ready',
        file: name,
        sizeBytes: size,
        readyAt: sql`now()`,
        expiresAt: new Date(Date.now() + VALID_MS),
      })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')))
      .returning({ id: dataExports.id });
    if (done) await notifyExportReady(tx, row.userId, exportId);
    return !!done;
  });
  if (!stored) await rm(file, { force: true });
  return stored ? 'ready' : 'gone';
}

/** Marks an export the job gave up on as failed (the member may ask again). */
export async function failExport(exportId: number): Promise<void> {
  await db()
    .update(dataExports)
    .set({ status: 'failed' })
    .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
}

/** Deletes exports past their 24 hours (their rows, notifications and files), and files of exports gone. */
export async function sweepExports(): Promise<number> {
  const gone = await db()
    .delete(dataExports)
    .where(
      or(
        lt(dataExports.expiresAt, sql`now()`),
        and(eq(dataExports.status, 'failed'), lt(dataExports.createdAt, sql`now() - interval '1 day'`)),
      ),
    )
    .returning({ file: dataExports.file });
  await removeExportFiles(gone.map((g) => g.file));
  return gone.length;
}

/** Removes built ZIPs by file name (those of a deleted account, or expired). */
export async function removeExportFiles(names: (string | null)[]): Promise<void> {
  await Promise.all(
    names
      .filter((n): n is string => !!n && /^[\w-]+\.zip$/.test(n))
      .map((n) => rm(path.join(exportsDir(), n), { force: true })),
  );
}
