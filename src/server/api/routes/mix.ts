/** Family A 合集: mix/list of a user, mix/detail and mix/aweme (the episodes in order). */
import { z } from 'zod';
import { getSeries, seriesByAuthor, seriesVideos } from '../../services/series.ts';
import { getBySecUid } from '../../services/users.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, cursor, id, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, mixInfo, nextCursor } from '../schemas.ts';
import { asBit, awemeList, mixList } from '../shape.ts';

export const mixRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/list/',
    family: 'A',
    auth: false,
    summary: "A user's mixes and dramas, newest first; cursor is where the next page starts",
    input: z.object({ sec_user_id: secUid(), cursor: cursor(), count: count(12) }),
    response: bodyA({ mix_infos: z.array(mixInfo), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer }) => {
      const user = await getBySecUid(input.sec_user_id, null);
      if (!user) throw new ApiError(404, 'error.userNotFound');
      const page = await seriesByAuthor(user.id, { cursor: input.cursor, count: input.count });
      return okA({ mix_infos: await mixList(viewer, page.items), cursor: page.cursor, has_more: asBit(page.hasMore) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/detail/',
    family: 'A',
    auth: false,
    summary: 'One mix',
    input: z.object({ mix_id: id() }),
    response: bodyA({ mix_info: mixInfo }),
    handler: async ({ input, viewer }) => {
      const mix = await getSeries(input.mix_id);
      if (!mix) throw new ApiError(404, 'error.mixNotFound');
      const [info] = await mixList(viewer, [mix]);
      return okA({ mix_info: info! });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/aweme/',
    family: 'A',
    auth: false,
    summary: "A mix's videos in episode order; cursor is where the next page starts",
    input: z.object({ mix_id: id(), cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(aweme), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const mix = await getSeries(input.mix_id);
      if (!mix) throw new ApiError(404, 'error.mixNotFound');
      const page = await seriesVideos(mix.id, { cursor: input.cursor, count: input.count });
      return okA({
        aweme_list: await awemeList({ viewer, request }, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
];
