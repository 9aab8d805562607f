/** Family A 合集: mix/list of a user, mix/detail, mix/aweme (the episodes in order) and mix/progress (where the viewer is). */
import { z } from 'zod';
import { getSeries, seriesByAuthor, seriesVideos } from '../../services/series.ts';
import { resumePoint, seriesProgress } from '../../services/theatre.ts';
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
    handler: async ({ input, viewer, request }) => {
      const user = await getBySecUid(input.sec_user_id, null);
      if (!user) throw new ApiError(404, 'error.userNotFound');
      const page = await seriesByAuthor(user.id, { cursor: input.cursor, count: input.count });
      return okA({
        mix_infos: await mixList({ viewer, request }, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
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
    handler: async ({ input, viewer, request }) => {
      const mix = await getSeries(input.mix_id);
      if (!mix) throw new ApiError(404, 'error.mixNotFound');
      const [info] = await mixList({ viewer, request }, [mix]);
      return okA({ mix_info: info! });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/aweme/',
    family: 'A',
    auth: false,
    summary:
      "A mix's videos in episode order, with the mix (its page under mix_info.share_info.share_url); cursor is where the next page starts",
    input: z.object({ mix_id: id(), cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(aweme), mix_info: mixInfo, cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const mix = await getSeries(input.mix_id);
      if (!mix) throw new ApiError(404, 'error.mixNotFound');
      const [page, [info]] = await Promise.all([
        seriesVideos(mix.id, { cursor: input.cursor, count: input.count }),
        mixList({ viewer, request }, [mix]),
      ]);
      return okA({
        aweme_list: await awemeList({ viewer, request }, page.items),
        mix_info: info!,
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/mix/progress/',
    family: 'A',
    auth: true,
    summary:
      'Where the viewer is in a series: the episode watched last and how far (last, null before they start), and how far they got in each episode they opened',
    input: z.object({ mix_id: id() }),
    response: bodyA({
      last: z.object({ aweme_id: z.string(), episode: z.number().int(), progress_ms: z.number().int() }).nullable(),
      progress: z.array(z.object({ aweme_id: z.string(), progress_ms: z.number().int() })),
    }),
    handler: async ({ input, viewer }) => {
      const mix = await getSeries(input.mix_id);
      if (!mix) throw new ApiError(404, 'error.mixNotFound');
      const [last, each] = await Promise.all([resumePoint(viewer.id, mix.id), seriesProgress(viewer.id, mix.id)]);
      return okA({
        last: last && { aweme_id: String(last.videoId), episode: last.episode, progress_ms: last.progressMs },
        progress: [...each].map(([video, ms]) => ({ aweme_id: String(video), progress_ms: ms })),
      });
    },
  }),
];
