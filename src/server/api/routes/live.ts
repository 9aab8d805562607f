/** Family A webcast/feed: rooms on air, paged by max_time as Douyin does. */
import { z } from 'zod';
import { liveBefore } from '../../services/live.ts';
import { okA } from '../envelope.ts';
import { count, int } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, liveRoom } from '../schemas.ts';
import { asBit, liveRoom as shapeRoom } from '../shape.ts';

/** The last millisecond of year 9999: any later max_time is not a date. */
const MAX_TIME = 253_402_300_799_999;

export const liveRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/webcast/feed/',
    family: 'A',
    auth: false,
    summary:
      'Live rooms on air, latest start first; max_time (ms, 0 = now) is the start time the next page begins before',
    input: z.object({ max_time: int(0, MAX_TIME).default(0).meta({ default: 0 }), count: count(20) }),
    response: bodyA({ data: z.array(liveRoom), has_more: bit, max_time: z.number().int() }),
    handler: async ({ input }) => {
      const page = await liveBefore(input.max_time, input.count);
      const last = page.items.at(-1);
      return okA({
        data: page.items.map(shapeRoom),
        has_more: asBit(page.hasMore),
        max_time: last ? last.startedAt.getTime() : input.max_time,
      });
    },
  }),
];
