/** The social graph: power-law in-degree, a share of it mutual; the demo account follows 15, of whom 8 follow back. */
import type { PairPlan, PlanContext } from './context.ts';
import type { Cast, UserPlan } from './users.ts';

export interface SocialGraph {
  /** Keyed `follower:followee`. */
  follows: Map<string, PairPlan>;
  /** Whom the demo account follows; the first 8 follow back. */
  demoFollows: UserPlan[];
}

export function planFollows({ rng, after }: PlanContext, { users, demo, creators, creatorCum }: Cast): SocialGraph {
  const follows = new Map<string, PairPlan>();
  const follow = (a: UserPlan, b: UserPlan, createdAt?: number) => {
    const key = `${a.id}:${b.id}`;
    if (a === b || follows.has(key)) return;
    follows.set(key, {
      userId: a.id,
      targetId: b.id,
      createdAt: createdAt ?? after(Math.max(a.createdAt, b.createdAt), 0.2),
    });
  };
  for (const a of creators) {
    for (const j of rng.sample(creatorCum, rng.int(3, 18), (j) => creators[j] === a)) follow(a, creators[j]!);
  }
  for (const edge of [...follows.values()]) {
    if (rng.chance(0.22)) follow(users[edge.targetId - 1]!, users[edge.userId - 1]!);
  }
  const demoFollows = rng.sample(creatorCum, 15).map((j) => creators[j]!);
  for (const [k, u] of demoFollows.entries()) {
    follow(demo, u);
    if (k < 8) follow(u, demo, after(demo.createdAt, 0.35));
  }
  const fans = creators.filter((u) => !demoFollows.includes(u));
  for (let k = 0; k < 6; k++) follow(rng.pick(fans), demo, after(demo.createdAt, 0.5));
  return { follows, demoFollows };
}
