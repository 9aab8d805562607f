/**
 * The demo account's notifications, derived from the planned rows the way the services write them: one per actor,
 * kind and target (the latest wins), one per comment and recipient (a comment or reply notice stands for a mention).
 */
import type { NoticeKind } from '../../../shared/messaging.ts';
import { DEMO_NICKNAME } from '../demo.ts';
import type { CommentPlan } from './comments.ts';
import type { PairPlan } from './context.ts';
import type { DanmakuPlan } from './danmaku.ts';
import type { LiveRoomPlan } from './live.ts';
import type { Cast } from './users.ts';
import type { VideoPlan } from './videos.ts';

export interface NoticePlan {
  actorId: number;
  kind: NoticeKind;
  videoId: number | null;
  commentId: number | null;
  /** The broadcast a 开播了 notice is about. */
  roomId: number | null;
  text: string | null;
  createdAt: number;
}

/** The rows notifications are derived from. */
export interface NoticeSources {
  videos: VideoPlan[];
  likes: PairPlan[];
  comments: CommentPlan[];
  commentLikes: PairPlan[];
  danmaku: DanmakuPlan[];
  follows: Map<string, PairPlan>;
  liveRooms: LiveRoomPlan[];
}

/** Oldest first. Draws nothing from the PRNG. */
export function planNotifications(
  { demo }: Cast,
  { videos, likes, comments, commentLikes, danmaku, follows, liveRooms }: NoticeSources,
): NoticePlan[] {
  const noticeByTarget = new Map<string, NoticePlan>();
  const notice = (n: NoticePlan) => {
    if (n.actorId === demo.id) return;
    const key = `${n.actorId}:${n.kind}:${n.videoId}:${n.commentId}:${n.roomId}`;
    const had = noticeByTarget.get(key);
    if (!had || had.createdAt < n.createdAt) noticeByTarget.set(key, n);
  };
  const none = { videoId: null, commentId: null, roomId: null, text: null };
  for (const l of likes) {
    if (videos[l.targetId - 1]!.author === demo)
      notice({ ...none, actorId: l.userId, kind: 'like_video', videoId: l.targetId, createdAt: l.createdAt });
  }
  for (const c of comments) {
    if (c.deletedAt !== null || c.user === demo) continue;
    const base = {
      actorId: c.user.id,
      videoId: c.video.id,
      commentId: c.id,
      roomId: null,
      text: c.text,
      createdAt: c.createdAt,
    };
    if (c.replyTo === demo) notice({ ...base, kind: 'reply' });
    else if (c.parentId === null && c.video.author === demo) notice({ ...base, kind: 'comment' });
    else if (c.text.includes(`@${DEMO_NICKNAME}`)) notice({ ...base, kind: 'mention' });
  }
  for (const l of commentLikes) {
    const c = comments[l.targetId - 1]!;
    if (c.user === demo)
      notice({
        actorId: l.userId,
        kind: 'like_comment',
        videoId: c.video.id,
        commentId: c.id,
        roomId: null,
        text: c.text,
        createdAt: l.createdAt,
      });
  }
  for (const d of danmaku) {
    if (videos[d.videoId - 1]!.author === demo)
      notice({ ...none, actorId: d.userId, kind: 'danmaku', videoId: d.videoId, text: d.text, createdAt: d.createdAt });
  }
  for (const f of follows.values()) {
    if (f.targetId === demo.id) notice({ ...none, actorId: f.userId, kind: 'follow', createdAt: f.createdAt });
  }
  // 开播了: the past broadcasts of the hosts the demo account followed by then.
  for (const r of liveRooms) {
    const f = follows.get(`${demo.id}:${r.host.id}`);
    if (f && f.createdAt < r.startedAt)
      notice({ ...none, actorId: r.host.id, kind: 'live', roomId: r.id, text: r.title, createdAt: r.startedAt });
  }
  return [...noticeByTarget.values()].sort((x, y) => x.createdAt - y.createdAt);
}
