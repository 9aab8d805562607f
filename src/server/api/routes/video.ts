/** Family A video reads: aweme/detail and aweme/related. */
import { z } from 'zod';
import { byIds, related } from '../../services/videos.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, id, idList, int } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bodyA, bit } from '../schemas.ts';
import { asBit, awemeList } from '../shape.ts';

export const videoRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/aweme/detail/',
    family: 'A',
    auth: false,
    summary: 'One video',
    input: z.object({ aweme_id: id() }),
    response: bodyA({ aweme_detail: aweme }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const cards = await byIds([input.aweme_id], viewer?.id ?? null);
      if (!cards.length) throw new ApiError(404, 'error.videoNotFound');
      const [detail] = await awemeList({ viewer, request }, cards);
      return okA({ aweme_detail: detail! });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/aweme/related/',
    family: 'A',
    auth: false,
    summary: 'Videos related to one (same hashtags, then channel), without filterGids; refresh_index pages by count',
    input: z.object({
      aweme_id: id(),
      count: count(12),
      filterGids: idList().optional(),
      refresh_index: int(0, 100_000).default(1).meta({ default: 1 }),
    }),
    response: bodyA({ aweme_list: z.array(aweme), has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const [base] = await byIds([input.aweme_id], viewer?.id ?? null);
      if (!base) throw new ApiError(404, 'error.videoNotFound');
      const page = await related(input.aweme_id, {
        exclude: input.filterGids,
        viewerId: viewer?.id ?? null,
        skip: (Math.max(input.refresh_index, 1) - 1) * input.count,
        count: input.count,
      });
      return okA({ aweme_list: await awemeList({ viewer, request }, page.items), has_more: asBit(page.hasMore) });
    },
  }),
];
