/** What each user did with videos: likes, collects, watch later and watch history; and the shares and plays that follow. */
import type { PairPlan, PlanContext } from './context.ts';
import type { Cast } from './users.ts';
import { authoredBy, type Catalogue } from './videos.ts';

export interface Interactions {
  likes: PairPlan[];
  collects: PairPlan[];
  watchLater: PairPlan[];
  history: (PairPlan & { progressMs: number })[];
  /** Per video, in id order: counts that are not rows here. */
  reach: { shareCount: number; playCount: number }[];
}

export function planInteractions(
  { rng, after }: PlanContext,
  { users }: Cast,
  { videos, videoCum }: Catalogue,
): Interactions {
  const likes: PairPlan[] = [];
  const collects: PairPlan[] = [];
  const watchLater: PairPlan[] = [];
  const history: (PairPlan & { progressMs: number })[] = [];
  // Drawn user by user, the four lists interleaved: drawing them list by list would change every later draw.
  for (const u of users) {
    const others = authoredBy(videos, u);
    const n = u.isDemo ? 20 : rng.int(10, 30) + Math.floor(rng.next() ** 2 * 120);
    for (const i of rng.sample(videoCum, n, others)) {
      likes.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.4) });
    }
    for (const i of rng.sample(videoCum, rng.int(0, 4) + Math.floor(rng.next() ** 2 * 20), others)) {
      collects.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.3) });
    }
    for (const i of rng.sample(videoCum, rng.int(0, 6), others)) {
      watchLater.push({ userId: u.id, targetId: videos[i]!.id, createdAt: after(videos[i]!.createdAt, 0.3) });
    }
    for (const i of rng.sample(videoCum, rng.int(8, 40))) {
      const v = videos[i]!;
      const progressMs = rng.chance(0.5) ? v.clip.durationMs : rng.int(500, v.clip.durationMs);
      history.push({ userId: u.id, targetId: v.id, createdAt: after(v.createdAt, 0.6), progressMs });
    }
  }
  const likesPerVideo = new Map<number, number>();
  for (const l of likes) likesPerVideo.set(l.targetId, (likesPerVideo.get(l.targetId) ?? 0) + 1);
  // Shares and plays are not rows here: fixed numbers in proportion to the likes, plays 20-150 per like
  // (a like rate under 5 %), shares fewer than likes.
  const reach = videos.map((v) => {
    const liked = likesPerVideo.get(v.id) ?? 0;
    return {
      shareCount: Math.floor(liked * rng.next() * 0.5),
      playCount: liked * rng.int(20, 150) + rng.int(50, 1000),
    };
  });
  return { likes, collects, watchLater, history, reach };
}
