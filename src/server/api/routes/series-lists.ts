/** Family A lists of series: mix/listcollection (合集 the viewer collected from) and series/list (a user's 短剧). */
import { z } from 'zod';
import { mixesCollectedBy, seriesByAuthor } from '../../services/series.ts';
import { getBySecUid } from '../../services/users.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, cursor, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, mixInfo, nextCursor } from '../schemas.ts';
import { asBit, mixList } from '../shape.ts';

/** A drama as douyin's series_infos entry: the mix_info fields, with its id and name under series_* as well. */
const seriesInfo = mixInfo.extend({ series_id: z.string(), series_name: z.string() });

export const seriesListRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/listcollection/',
    family: 'A',
    auth: true,
    summary:
      '合集 the viewer collected from (an episode of it is in their 收藏), latest collect first; cursor is where the next page starts',
    input: z.object({ cursor: cursor(), count: count(12) }),
    response: bodyA({ mix_infos: z.array(mixInfo), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const p = await mixesCollectedBy(viewer.id, { cursor: input.cursor, count: input.count });
      return okA({
        mix_infos: await mixList({ viewer, request }, p.items),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/series/list/',
    family: 'A',
    auth: false,
    summary: "A user's 短剧 (theatre series), newest first; cursor is where the next page starts",
    input: z.object({ sec_user_id: secUid(), cursor: cursor(), count: count(12) }),
    response: bodyA({ series_infos: z.array(seriesInfo), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const user = await getBySecUid(input.sec_user_id, null);
      if (!user) throw new ApiError(404, 'error.userNotFound');
      const p = await seriesByAuthor(user.id, { cursor: input.cursor, count: input.count }, 'theatre');
      const mixes = await mixList({ viewer, request }, p.items);
      return okA({
        series_infos: p.items.map((x, i) => ({ ...mixes[i]!, series_id: String(x.id), series_name: x.title })),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
];
