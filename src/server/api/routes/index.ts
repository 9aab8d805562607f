/** Every API route, in one list: the router and the OpenAPI document both read it. */
import { z } from 'zod';
import { buildOpenApi } from '../openapi.ts';
import { route, type Route } from '../registry.ts';
import { accountRoutes } from './account.ts';
import { captionRoutes } from './captions.ts';
import { commentRoutes } from './comment.ts';
import { danmakuRoutes } from './danmaku.ts';
import { commentMentionRoutes } from './comment-mentions.ts';
import { familyBRoutes } from './family-b.ts';
import { familyBAccountRoutes } from './family-b-account.ts';
import { familyBListRoutes } from './family-b-lists.ts';
import { feedRoutes } from './feed.ts';
import { feedSteerRoutes } from './feed-steer.ts';
import { followFeedRoutes } from './follow-feeds.ts';
import { historyRoutes } from './history.ts';
import { imRoutes } from './im.ts';
import { liveRoutes } from './live.ts';
import { liveRoomRoutes } from './live-room.ts';
import { marksRoutes } from './marks.ts';
import { mixRoutes } from './mix.ts';
import { muteRoutes } from './mutes.ts';
import { noticeRoutes } from './notice.ts';
import { ownListRoutes } from './own-lists.ts';
import { passportRoutes } from './passport.ts';
import { personalListRoutes } from './personal-lists.ts';
import { profileEditRoutes } from './profile-edit.ts';
import { relationRoutes } from './relations.ts';
import { searchRoutes } from './search.ts';
import { seoRoutes } from './seo.ts';
import { seriesListRoutes } from './series-lists.ts';
import { settingsRoutes } from './settings.ts';
import { staffRoutes } from './staff.ts';
import { studioRoutes } from './studio.ts';
import { studioLiveRoutes } from './studio-live.ts';
import { studioStatsRoutes } from './studio-stats.ts';
import { userRoutes } from './user.ts';
import { videoRoutes } from './video.ts';
import { videoListRoutes } from './video-lists.ts';
import { writeRoutes } from './writes.ts';

let document: object | undefined;

const openApiRoute = route({
  method: 'GET',
  path: '/openapi.json',
  family: 'B',
  auth: false,
  summary: 'This document',
  input: z.object({}),
  response: z.record(z.string(), z.unknown()),
  handler: async () => (document ??= buildOpenApi(routes)) as Record<string, unknown>,
});

export const routes: Route[] = [
  ...feedRoutes,
  ...feedSteerRoutes,
  ...videoRoutes,
  ...videoListRoutes,
  ...commentRoutes,
  ...danmakuRoutes,
  ...commentMentionRoutes,
  ...searchRoutes,
  ...muteRoutes,
  ...userRoutes,
  ...profileEditRoutes,
  ...historyRoutes,
  ...liveRoutes,
  ...liveRoomRoutes,
  ...mixRoutes,
  ...noticeRoutes,
  ...seoRoutes,
  ...settingsRoutes,
  ...writeRoutes,
  ...imRoutes,
  ...passportRoutes,
  ...familyBRoutes,
  ...familyBListRoutes,
  ...familyBAccountRoutes,
  ...studioRoutes,
  ...captionRoutes,
  ...accountRoutes,
  ...studioLiveRoutes,
  ...studioStatsRoutes,
  ...followFeedRoutes,
  ...ownListRoutes,
  ...seriesListRoutes,
  ...relationRoutes,
  ...staffRoutes,
  ...personalListRoutes,
  ...marksRoutes,
  openApiRoute,
];
