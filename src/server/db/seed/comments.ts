/** Comments with reply threads (parent_id = the root), in proportion to each video's likes, some @mentions, a few deleted; and their likes. */
import { CHANNELS, GENERIC_COMMENTS, MENTION_TAILS, REPLIES } from './content.ts';
import { DAY, type PairPlan, type PlanContext } from './context.ts';
import type { Cast, UserPlan } from './users.ts';
import { authoredBy, type Catalogue, type VideoPlan } from './videos.ts';

export interface CommentPlan {
  id: number;
  video: VideoPlan;
  user: UserPlan;
  parentId: number | null;
  replyTo: UserPlan | null;
  text: string;
  createdAt: number;
  deletedAt: number | null;
}

export function planComments(
  { rng, ago, after }: PlanContext,
  { users, demo, creators, creatorCum, activeCum }: Cast,
  { videos, videoCum }: Catalogue,
  likes: PairPlan[],
): { comments: CommentPlan[]; commentLikes: PairPlan[] } {
  const likesPerVideo = new Map<number, number>();
  for (const l of likes) likesPerVideo.set(l.targetId, (likesPerVideo.get(l.targetId) ?? 0) + 1);
  const comments: CommentPlan[] = [];
  const commentText = (v: VideoPlan, by: UserPlan) => {
    if (rng.chance(0.08)) {
      const target = rng.chance(0.07) ? demo : users[rng.weighted(activeCum)]!;
      if (target !== by) return `@${target.nickname} ${rng.pick(MENTION_TAILS)}`;
    }
    const pool = rng.chance(0.55) ? CHANNELS[v.channelId].comments : GENERIC_COMMENTS;
    const first = rng.pick(pool);
    return rng.chance(0.2) ? `${first}，${rng.pick(GENERIC_COMMENTS)}` : first;
  };
  const addComment = (
    video: VideoPlan,
    user: UserPlan,
    text: string,
    createdAt: number,
    parent: CommentPlan | null,
    replyTo: UserPlan | null,
  ) => {
    const c: CommentPlan = {
      id: comments.length + 1,
      video,
      user,
      parentId: parent?.id ?? null,
      replyTo,
      text,
      createdAt,
      deletedAt: rng.chance(0.015) ? after(createdAt, 0.2) : null,
    };
    comments.push(c);
    return c;
  };
  const addReplies = (root: CommentPlan, n: number) => {
    const thread: UserPlan[] = [root.user];
    let last = root.createdAt;
    for (let r = 0; r < n; r++) {
      const author = root.video.author;
      const by = rng.chance(0.4) && author !== root.user ? author : users[rng.weighted(activeCum)]!;
      const candidates = thread.filter((u) => u !== by);
      const to = rng.chance(0.6) || candidates.length === 0 ? root.user : rng.pick(candidates);
      last = after(last, 0.5);
      addComment(
        root.video,
        by,
        by === author ? rng.pick(['谢谢支持', '感谢喜欢', ...REPLIES]) : rng.pick(REPLIES),
        last,
        root,
        to,
      );
      thread.push(by);
    }
  };
  for (const v of videos) {
    // Fewer people comment than like: threads (replies included) stay well under the video's likes.
    const top = Math.floor((likesPerVideo.get(v.id) ?? 0) * (0.15 + 0.4 * rng.next())) + (v.author.isDemo ? 3 : 0);
    for (let k = 0; k < top; k++) {
      const by = users[rng.weighted(activeCum)]!;
      const root = addComment(v, by, commentText(v, by), after(v.createdAt, 0.45), null, null);
      if (rng.chance(0.3)) addReplies(root, rng.int(1, 4));
    }
  }
  // The demo account's own comments, answered by others (its 回复 notifications).
  for (const i of rng.sample(videoCum, 6, authoredBy(videos, demo))) {
    const v = videos[i]!;
    const root = addComment(
      v,
      demo,
      rng.pick(GENERIC_COMMENTS),
      after(Math.max(v.createdAt, ago(3 * DAY)), 0.6),
      null,
      null,
    );
    let last = root.createdAt;
    for (let r = rng.int(1, 3); r > 0; r--) {
      last = after(last, 0.6);
      addComment(v, creators[rng.weighted(creatorCum)]!, rng.pick(REPLIES), last, root, demo);
    }
  }
  const commentLikes: PairPlan[] = [];
  for (const c of comments) {
    if (c.deletedAt !== null) continue;
    for (const j of rng.sample(activeCum, Math.floor(rng.next() ** 2.2 * 10))) {
      commentLikes.push({ userId: users[j]!.id, targetId: c.id, createdAt: after(c.createdAt, 0.5) });
    }
  }
  return { comments, commentLikes };
}
