/** Family A 关注: follow/feed (videos by the people the viewer follows) and webcast/web/feed/follow (their rooms on air). */
import { z } from 'zod';
import { liveOfFollowed } from '../../services/live.ts';
import { followFeed } from '../../services/videos.ts';
import { followFeedExample } from '../douyin-examples.ts';
import { okA } from '../envelope.ts';
import { count, cursor } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, liveRoom, nextCursor } from '../schemas.ts';
import { asBit, awemeList, liveRoom as shapeRoom } from '../shape.ts';

/** A row of douyin's followed-live list: our live room, with the room again under `room`, where douyin's clients read it. */
const followedRoom = liveRoom.extend({ room: liveRoom.shape.data });

export const followFeedRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/follow/feed/',
    family: 'A',
    auth: true,
    summary:
      '关注 feed: videos by the users the viewer follows, newest first, under data[].aweme as douyin.com answers (and aweme_list); cursor is where the next page starts',
    input: z.object({ cursor: cursor(), count: count(18) }),
    response: bodyA({
      data: z.array(z.object({ aweme })),
      aweme_list: z.array(aweme),
      cursor: nextCursor,
      has_more: bit,
    }).meta({ examples: [followFeedExample] }),
    handler: async ({ input, viewer, request }) => {
      const p = await followFeed(viewer.id, { cursor: input.cursor, count: input.count });
      const list = await awemeList({ viewer, request }, p.items);
      return okA({
        data: list.map((a) => ({ aweme: a })),
        aweme_list: list,
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/webcast/web/feed/follow/',
    family: 'A',
    auth: true,
    summary:
      "Rooms on air whose host the viewer follows, latest start first, in douyin's webcast envelope (data.data); data.cursor is the next offset",
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: bodyA({
      data: z.object({ data: z.array(followedRoom), has_more: bit, cursor: nextCursor }),
      extra: z.object({ now: z.number().int().describe('Unix milliseconds') }),
    }),
    handler: async ({ input, viewer }) => {
      const p = await liveOfFollowed(viewer.id, { cursor: input.cursor, count: input.count });
      const rows = p.items.map((r) => {
        const shaped = shapeRoom(r);
        return { ...shaped, room: shaped.data };
      });
      return okA({ data: { data: rows, has_more: asBit(p.hasMore), cursor: p.cursor }, extra: { now: Date.now() } });
    },
  }),
];
