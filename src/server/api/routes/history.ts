/** Family A watch history: history/read (every video, with progress) and lvideo/query/history (放映厅 episodes). */
import { z } from 'zod';
import { historyPage } from '../../services/videos.ts';
import { okA } from '../envelope.ts';
import { count, cursor } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, historyAweme, nextCursor } from '../schemas.ts';
import { asBit, historyList } from '../shape.ts';

export const historyRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/history/read/',
    family: 'A',
    auth: true,
    summary:
      "The viewer's watch history of the last 30 days with progress, latest first; max_cursor is where the next page starts",
    input: z.object({ max_cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(historyAweme), max_cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const page = await historyPage(viewer.id, { cursor: input.max_cursor, count: input.count });
      return okA({
        aweme_list: await historyList({ viewer, request }, page.items),
        max_cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/lvideo/query/history/',
    family: 'A',
    auth: true,
    summary: "The viewer's history of long videos (放映厅 drama episodes); cursor is where the next page starts",
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(historyAweme), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const page = await historyPage(viewer.id, { cursor: input.cursor, count: input.count }, true);
      return okA({
        aweme_list: await historyList({ viewer, request }, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
];
