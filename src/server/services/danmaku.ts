/** 弹幕: timed bullet comments over a video, listed in time order and sent at a point of the video. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { danmaku, videos } from '../db/schema.ts';
import { notBlockedBy } from './blocks.ts';
import { notMutedText } from './mutes.ts';
import { invalid, notFound } from '../errors.ts';
import { visibleWorks } from './visibility.ts';
import { notify } from './notifications.ts';
import { enforce } from './rate-limit.ts';
import { assertCanSpeak } from '../staff/sanctions.ts';

/** Longest danmaku, in characters (code points). */
export const MAX_DANMAKU = 50;
/** Danmaku one user may send per minute. */
export const DANMAKU_RATE = { limit: 10, windowMs: 60_000 };
/** Most danmaku one list answers (a clip is seconds long; the player drops what its lanes cannot hold anyway). */
const LIST_LIMIT = 1000;

export interface DanmakuView {
  id: number;
  videoId: number;
  userId: number;
  text: string;
  offsetMs: number;
  createdAt: Date;
}

const columns = {
  id: danmaku.id,
  videoId: danmaku.videoId,
  userId: danmaku.userId,
  text: danmaku.text,
  offsetMs: danmaku.offsetMs,
  createdAt: danmaku.createdAt,
};

/**
 * A video's danmaku in time order (ties by age) as `viewerId` sees them: without those of users the viewer blocked, nor
 * those by authors they muted or holding a muted keyword (mutes.ts)
 * (anonymous viewers see all). Null when the video is unknown or deleted.
 */
export async function listDanmaku(videoId: number, viewerId: number | null): Promise<DanmakuView[] | null> {
  const [video] = await db()
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.id, videoId), visibleWorks(viewerId)));
  if (!video) return null;
  return db()
    .select(columns)
    .from(danmaku)
    .where(
      and(
        eq(danmaku.videoId, videoId),
        notBlockedBy(viewerId, danmaku.userId),
        notMutedText(viewerId, sql`${danmaku.userId}`, sql`${danmaku.text}`),
      ),
    )
    .orderBy(asc(danmaku.offsetMs), asc(danmaku.id))
    .limit(LIST_LIMIT);
}

/** One line of text: runs of whitespace (newlines included) become one space, the ends are trimmed. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Sends a danmaku at `offsetMs` (clamped into the video) after the per-user rate limit; the video's author is
 * notified (发了弹幕). Text is stored as given, rendered as text.
 */
export async function sendDanmaku(
  userId: number,
  videoId: number,
  text: string,
  offsetMs: number,
): Promise<DanmakuView> {
  const body = cleanText(text);
  if (!body) throw invalid('error.danmakuEmpty');
  await assertCanSpeak(userId);
  if ([...body].length > MAX_DANMAKU) throw invalid('error.danmakuTooLong', { max: MAX_DANMAKU });
  if (!Number.isFinite(offsetMs)) throw invalid('error.danmakuOffset');
  await enforce(`danmaku:${userId}`, DANMAKU_RATE.limit, DANMAKU_RATE.windowMs);
  return db().transaction(async (tx) => {
    const [video] = await tx
      .select({ authorId: videos.authorId, durationMs: videos.durationMs })
      .from(videos)
      .where(and(eq(videos.id, videoId), visibleWorks(userId)));
    if (!video) throw notFound('error.videoNotFound');
    const at = Math.trunc(Math.min(Math.max(offsetMs, 0), video.durationMs));
    const [row] = await tx.insert(danmaku).values({ videoId, userId, text: body, offsetMs: at }).returning(columns);
    await notify(tx, { userId: video.authorId, actorId: userId, kind: 'danmaku', videoId, text: body });
    return row!;
  });
}
