/** The deterministic seed: a living site (users, videos, series, live rooms, comments, social graph) in one transaction. */
import { count, eq, sql } from 'drizzle-orm';
import type { MediaStore } from '../media/store.ts';
import { hashPassword } from '../services/password.ts';
import { tokenize } from '../services/search-tokens.ts';
import type { Db } from './client.ts';
import { demoPassword } from './demo.ts';
import { recountAll } from './recount.ts';
import * as s from './schema.ts';
import { liveCoverKey, posterKey } from './seed/artwork.ts';
import { artworkFiles, writeArtwork } from './seed/artwork-files.ts';
import { DAY, HOUR, type PairPlan } from './seed/context.ts';
import { planDailyStats } from './seed/daily-stats.ts';
import { insertAll, syncSequence } from './seed/insert.ts';
import { loadManifest, type MediaManifest } from './seed/manifest.ts';
import { buildPlan } from './seed/plan.ts';

export { DEMO_EMAIL, DEMO_NICKNAME, demoPassword, hasDemoAccount } from './demo.ts';

export interface SeedOptions {
  /** The seed's "now"; every timestamp is now minus a deterministic offset. */
  now?: Date;
  manifest?: MediaManifest;
  /** Where the seeded rows' posters and avatars are written (the server's media store); without it, none are. */
  artwork?: MediaStore;
}

/** Rows inserted per table. */
export type SeedSummary = Record<string, number>;

/** How many of the demo account's newest notifications of each kind are still unread. */
const UNREAD_PER_KIND = 2;

/** Seeds an empty database (no users) deterministically: same `now`, same rows. Returns the rows inserted per table. */
export async function seed(db: Db, opts: SeedOptions = {}): Promise<SeedSummary> {
  const nowMs = (opts.now ?? new Date()).getTime();
  const manifest = opts.manifest ?? loadManifest();
  // scrypt runs on libuv's thread pool while the rows are inserted; the demo row gets it at the end.
  const hashing = hashPassword(demoPassword());
  hashing.catch(() => {});
  const at = (ms: number) => new Date(ms);

  const { summary, plan } = await db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(s.users);
    if (existing && existing.n > 0) throw new Error('seed: the database already has users');
    const [tagMax] = await tx.select({ max: sql<number>`coalesce(max(${s.hashtags.id}), 0)::int` }).from(s.hashtags);
    const known = await tx.select({ name: s.hashtags.name }).from(s.hashtags);
    const plan = buildPlan(nowMs, manifest, tagMax?.max ?? 0);
    const summary: SeedSummary = {};

    summary.users = await insertAll(
      tx,
      s.users,
      plan.users.map((u) => ({
        id: u.id,
        secUid: u.secUid,
        email: u.email,
        nickname: u.nickname,
        signature: u.signature,
        avatar: u.avatar,
        banner: u.banner,
        ipProvince: u.ipProvince,
        isDemo: u.isDemo,
        createdAt: at(u.createdAt),
      })),
      true,
    );
    const knownNames = new Set(known.map((k) => k.name));
    summary.hashtags = await insertAll(
      tx,
      s.hashtags,
      [...plan.hashtagIds]
        .filter(([name]) => !knownNames.has(name))
        .map(([name, id]) => ({ id, name, createdAt: at(nowMs - 60 * DAY) })),
      true,
    );
    // Tags that already existed keep their own ids.
    const tagIds = new Map(plan.hashtagIds);
    if (knownNames.size > 0) {
      for (const row of await tx.select({ id: s.hashtags.id, name: s.hashtags.name }).from(s.hashtags))
        tagIds.set(row.name, row.id);
    }
    summary.videos = await insertAll(
      tx,
      s.videos,
      plan.videos.map((v) => {
        const desc = `${v.title} ${v.tags.map((t) => `#${t}`).join(' ')}`;
        return {
          id: v.id,
          authorId: v.author.id,
          channelId: v.channelId,
          desc,
          media: v.clip.video,
          poster: posterKey(v.id),
          durationMs: v.clip.durationMs,
          width: v.clip.width,
          height: v.clip.height,
          sizeBytes: v.clip.bytes,
          ...plan.reach[v.id - 1]!,
          searchTokens: tokenize(`${desc} ${v.author.nickname}`),
          createdAt: at(v.createdAt),
        };
      }),
      true,
    );
    summary.video_hashtags = await insertAll(
      tx,
      s.videoHashtags,
      plan.videos.flatMap((v) => v.tags.map((t) => ({ videoId: v.id, hashtagId: tagIds.get(t)! }))),
    );
    summary.series = await insertAll(
      tx,
      s.series,
      plan.series.map((x) => ({
        id: x.id,
        authorId: x.author.id,
        kind: x.kind,
        title: x.title,
        description: x.description,
        cover: posterKey(x.items[0]!.id),
        createdAt: at(x.items[0]!.createdAt),
      })),
      true,
    );
    summary.series_items = await insertAll(
      tx,
      s.seriesItems,
      plan.series.flatMap((x) => x.items.map((v, i) => ({ seriesId: x.id, videoId: v.id, position: i + 1 }))),
    );
    summary.comments = await insertAll(
      tx,
      s.comments,
      plan.comments.map((c) => ({
        id: c.id,
        videoId: c.video.id,
        userId: c.user.id,
        parentId: c.parentId,
        replyToUserId: c.replyTo?.id ?? null,
        text: c.text,
        deletedAt: c.deletedAt === null ? null : at(c.deletedAt),
        createdAt: at(c.createdAt),
      })),
      true,
    );
    const pairs = (rows: PairPlan[]) =>
      rows.map((p) => ({ userId: p.userId, targetId: p.targetId, createdAt: at(p.createdAt) }));
    summary.comment_likes = await insertAll(tx, s.commentLikes, pairs(plan.commentLikes));
    summary.likes = await insertAll(tx, s.likes, pairs(plan.likes));
    summary.collects = await insertAll(tx, s.collects, pairs(plan.collects));
    summary.watch_later = await insertAll(tx, s.watchLater, pairs(plan.watchLater));
    summary.watch_history = await insertAll(
      tx,
      s.watchHistory,
      plan.history.map((h) => ({
        userId: h.userId,
        videoId: h.targetId,
        progressMs: h.progressMs,
        watchedAt: at(h.createdAt),
      })),
    );
    summary.follows = await insertAll(
      tx,
      s.follows,
      plan.follows.map((f) => ({ followerId: f.userId, followeeId: f.targetId, createdAt: at(f.createdAt) })),
    );
    // Derived from the plan after it is built, outside it: the plan's fingerprint stays as it was.
    const daily = planDailyStats(plan, nowMs);
    summary.video_daily_stats = await insertAll(tx, s.videoDailyStats, daily.videoDays);
    summary.user_daily_followers = await insertAll(tx, s.userDailyFollowers, daily.followerDays);
    summary.danmaku = await insertAll(
      tx,
      s.danmaku,
      plan.danmaku.map((d) => ({ ...d, createdAt: at(d.createdAt) })),
    );
    summary.live_rooms = await insertAll(
      tx,
      s.liveRooms,
      plan.liveRooms.map((r) => ({
        id: r.id,
        hostId: r.host.id,
        channelId: r.channelId,
        title: r.title,
        cover: liveCoverKey(r.id),
        media: r.clip.video,
        status: r.status,
        viewerCount: r.viewerCount,
        startedAt: at(r.startedAt),
        endedAt: at(r.endedAt),
      })),
      true,
    );
    summary.live_messages = await insertAll(
      tx,
      s.liveMessages,
      plan.liveMessages.map((m) => ({ ...m, createdAt: at(m.createdAt) })),
    );
    // Only the newest few of each kind are unseen: every filter has something new, and a badge in the hundreds
    // would say nobody ever opens the panel.
    const unseen = new Set<(typeof plan.notifications)[number]>();
    const perKind = new Map<string, number>();
    for (const n of [...plan.notifications].reverse()) {
      const k = perKind.get(n.kind) ?? 0;
      if (k < UNREAD_PER_KIND) unseen.add(n);
      perKind.set(n.kind, k + 1);
    }
    summary.notifications = await insertAll(
      tx,
      s.notifications,
      plan.notifications.map((n) => ({
        userId: plan.users[0]!.id,
        ...n,
        readAt: unseen.has(n) ? null : at(Math.min(nowMs, n.createdAt + HOUR)),
        createdAt: at(n.createdAt),
      })),
    );
    summary.search_log = await insertAll(
      tx,
      s.searchLog,
      plan.searches.map((q) => ({ ...q, createdAt: at(q.createdAt) })),
    );
    summary.conversations = await insertAll(
      tx,
      s.conversations,
      plan.conversations.map((c) => ({
        id: c.id,
        userA: c.userA,
        userB: c.userB,
        lastMessageAt: at(c.lines[c.lines.length - 1]!.createdAt),
        createdAt: at(c.lines[0]!.createdAt),
      })),
      true,
    );
    summary.messages = await insertAll(
      tx,
      s.messages,
      plan.conversations.flatMap((c) =>
        c.lines.map((m) => ({ conversationId: c.id, ...m, createdAt: at(m.createdAt) })),
      ),
    );

    summary.conversation_settings = await insertAll(
      tx,
      s.conversationSettings,
      plan.demoSettings.map((c) => ({ ...c, userId: plan.users[0]!.id, lastReadAt: at(c.lastReadAt) })),
    );

    await tx
      .update(s.users)
      .set({ passwordHash: await hashing })
      .where(eq(s.users.id, plan.users[0]!.id));
    for (const table of ['users', 'hashtags', 'videos', 'series', 'comments', 'live_rooms', 'conversations']) {
      await syncSequence(tx, table);
    }
    await recountAll(tx);
    return { summary, plan };
  });
  // Fresh statistics, so the first queries are planned on the rows just written, not on an empty table.
  await db.execute(sql`analyze`);
  if (opts.artwork) await writeArtwork(opts.artwork, artworkFiles(plan));
  return summary;
}
