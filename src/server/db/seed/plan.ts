/**
 * Everything the seed inserts, built in memory from the PRNG alone (no database reads), so it is reproducible.
 * The parts draw in the order below: reordering them, or the draws inside one, changes every row after.
 */
import { planComments } from './comments.ts';
import { planContext } from './context.ts';
import { planDanmaku } from './danmaku.ts';
import { planFollows } from './follows.ts';
import { planInteractions } from './interactions.ts';
import { planLive } from './live.ts';
import type { MediaManifest } from './manifest.ts';
import { planMessages } from './messages.ts';
import { planNotifications } from './notifications.ts';
import { planSearches } from './searches.ts';
import { numberSeries, planMixes, planTheatre } from './series.ts';
import { planUsers } from './users.ts';
import { catalogueOf, hashtagIdsOf, planVideos } from './videos.ts';

export type SeedPlan = ReturnType<typeof buildPlan>;

/** The plan as of `nowMs`, with new hashtag ids after `hashtagBase`. */
export function buildPlan(nowMs: number, manifest: MediaManifest, hashtagBase: number) {
  const ctx = planContext(nowMs, manifest);
  const cast = planUsers(ctx);
  const videos = planVideos(ctx, cast);
  const theatre = planTheatre(ctx, cast, videos.length + 1);
  videos.push(...theatre.episodes);
  const series = numberSeries([...theatre.series, ...planMixes(ctx, cast, videos)]);
  const hashtagIds = hashtagIdsOf(videos, hashtagBase);
  const catalogue = catalogueOf(videos);
  const social = planFollows(ctx, cast);
  const { likes, collects, watchLater, history, reach } = planInteractions(ctx, cast, catalogue);
  const { comments, commentLikes } = planComments(ctx, cast, catalogue, likes);
  const danmaku = planDanmaku(ctx, cast, videos);
  const { liveRooms, liveMessages } = planLive(ctx, cast);
  const searches = planSearches(ctx, cast, hashtagIds);
  const notifications = planNotifications(cast, {
    videos,
    likes,
    comments,
    commentLikes,
    danmaku,
    follows: social.follows,
    liveRooms,
  });
  const { conversations, demoSettings } = planMessages(ctx, cast, social);

  return {
    users: cast.users,
    videos,
    hashtagIds,
    series,
    comments,
    commentLikes,
    follows: [...social.follows.values()],
    likes,
    reach,
    collects,
    watchLater,
    history,
    danmaku,
    liveRooms,
    liveMessages,
    searches,
    notifications,
    conversations,
    demoSettings,
  };
}
