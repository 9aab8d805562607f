/** Family A feeds: tab/feed (推荐) and module/feed (首页 cards whose aweme is a JSON string). */
import { z } from 'zod';
import { discover, recommend } from '../../services/videos.ts';
import { okA } from '../envelope.ts';
import { count, int } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bodyA, bit } from '../schemas.ts';
import { asBit, awemeList } from '../shape.ts';

/** refresh_index is a 1-based page number (0 counts as the first page). */
const refreshIndex = () => int(0, 100_000).default(1).meta({ default: 1 });
const offsetOf = (refresh: number, n: number) => (Math.max(refresh, 1) - 1) * n;

export const feedRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/tab/feed/',
    family: 'A',
    auth: false,
    summary: '推荐 feed, ranked for the viewer; refresh_index pages by count',
    input: z.object({ count: count(10), refresh_index: refreshIndex() }),
    response: bodyA({ aweme_list: z.array(aweme), has_more: bit }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const page = await recommend(viewer?.id ?? null, { cursor: offsetOf(input.refresh_index, input.count), count: input.count });
      return okA({ aweme_list: await awemeList({ viewer, request }, page.items), has_more: asBit(page.hasMore) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/module/feed/',
    family: 'A',
    auth: false,
    summary: '首页 module feed: cards whose `aweme` is the JSON string of an aweme',
    input: z.object({ count: count(20), refresh_index: refreshIndex() }),
    response: bodyA({
      cards: z.array(z.object({ type: z.literal(1), aweme: z.string().describe('JSON of an aweme') })),
      has_more: bit,
    }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const page = await discover({ cursor: offsetOf(input.refresh_index, input.count), count: input.count });
      const list = await awemeList({ viewer, request }, page.items);
      return okA({ cards: list.map((a) => ({ type: 1 as const, aweme: JSON.stringify(a) })), has_more: asBit(page.hasMore) });
    },
  }),
];
