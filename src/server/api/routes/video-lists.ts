/** Family A lists behind the 首页 channels, 热点 and 朋友 pages, paged by a cursor for infinite scroll. */
import { z } from 'zod';
import { byChannel, friendFeed, hot } from '../../services/videos.ts';
import { okA } from '../envelope.ts';
import { channelId, count, cursor } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, nextCursor } from '../schemas.ts';
import { asBit, awemeList } from '../shape.ts';

const page = (extra: z.ZodRawShape = {}) =>
  bodyA({ aweme_list: z.array(aweme), cursor: nextCursor, has_more: bit, ...extra });

export const videoListRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/channel/feed/',
    family: 'A',
    auth: false,
    summary:
      "One channel's videos (tag_id is one of the eight channel ids), most engaging first; cursor is where the next page starts",
    input: z.object({ tag_id: channelId(), cursor: cursor(), count: count(24) }),
    response: page(),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const p = await byChannel(input.tag_id, { cursor: input.cursor, count: input.count }, viewer?.id ?? null);
      return okA({
        aweme_list: await awemeList({ viewer, request }, p.items),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/hot/aweme/list/',
    family: 'A',
    auth: false,
    summary: '热点: videos ranked by the last 7 days of likes, comments and collects with decay; hot_value is the heat',
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: page({ aweme_list: z.array(aweme.extend({ hot_value: z.number().int() })) }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const p = await hot({ cursor: input.cursor, count: input.count }, viewer?.id ?? null);
      const list = await awemeList({ viewer, request }, p.items);
      return okA({
        aweme_list: list.map((a, i) => ({ ...a, hot_value: p.items[i]!.heat })),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/friend/feed/',
    family: 'A',
    auth: true,
    summary: "Videos by the viewer's friends (mutual follows), newest first; cursor is where the next page starts",
    input: z.object({ cursor: cursor(), count: count(24) }),
    response: page(),
    handler: async ({ input, viewer, request }) => {
      const p = await friendFeed(viewer.id, { cursor: input.cursor, count: input.count });
      return okA({
        aweme_list: await awemeList({ viewer, request }, p.items),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
];
