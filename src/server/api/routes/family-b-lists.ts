/** Family B lists a client browses by: the hot list, the channels (categories) and one channel's videos, paged by page and size. */
import { z } from 'zod';
import { listChannels } from '../../services/channels.ts';
import { byChannel, hot } from '../../services/videos.ts';
import { okB } from '../envelope.ts';
import { offsetOf, oneName, pageNo, readRoute, size } from '../family-b-door.ts';
import { channelId, int } from '../params.ts';
import { bodyB, categoryB, videoB } from '../schemas.ts';
import { categoryB as shapeCategoryB, videoListB } from '../shape.ts';

const n = () => z.number().int();
const page = () => pageNo().default(1).meta({ default: 1 });
/** A page of videos; the last page says `hasMore: false`. */
const videoPage = <T extends z.ZodType>(item: T) =>
  bodyB(z.object({ videosList: z.array(item), hasMore: z.boolean() }));

export const familyBListRoutes = [
  ...readRoute({
    path: '/video/hotVideos',
    auth: false,
    summary:
      '热点, as Family A’s hot/aweme/list ranks it (the last 7 days of likes, comments and collects with decay); page and size (limit is another name for size); hotValue is the heat',
    input: z
      .object({
        page: page(),
        size: int(1, 50).optional().meta({ default: 20 }),
        limit: int(1, 50).optional().meta({ description: 'Another name for size' }),
      })
      .superRefine(oneName('size', 'limit', true))
      .transform((x) => ({ page: x.page, size: x.size ?? x.limit ?? 20 })),
    response: videoPage(videoB.extend({ hotValue: n() })),
    handler: async ({ input, viewer }) => {
      const p = await hot({ skip: offsetOf(input.page, input.size), count: input.size }, viewer?.id ?? null);
      const list = await videoListB(viewer, p.items);
      return okB({ videosList: list.map((v, i) => ({ ...v, hotValue: p.items[i]!.heat })), hasMore: p.hasMore });
    },
  }),
  ...readRoute({
    path: '/categories/getCategoriesList',
    auth: false,
    summary:
      'The channels (分类) in the editors’ order (channels.yaml): id (the tagId of getVideosByTag), name, description, banner, hashtags, videoCount',
    input: z.object({}),
    response: bodyB(z.array(categoryB)),
    handler: async () => okB((await listChannels()).map(shapeCategoryB)),
  }),
  ...readRoute({
    path: '/video/getVideosByTag',
    auth: false,
    summary:
      'One channel’s videos (tagId, or categoryId: an id of getCategoriesList), most engaging first, as Family A’s channel/feed; page and size',
    input: z
      .object({
        tagId: channelId().optional(),
        categoryId: channelId().optional().meta({ description: 'Another name for tagId' }),
        page: page(),
        size: size(20),
      })
      .superRefine(oneName('tagId', 'categoryId'))
      .transform((x) => ({ tagId: (x.tagId ?? x.categoryId)!, page: x.page, size: x.size })),
    response: videoPage(videoB),
    handler: async ({ input, viewer }) => {
      const p = await byChannel(
        input.tagId,
        { skip: offsetOf(input.page, input.size), count: input.size },
        viewer?.id ?? null,
      );
      return okB({ videosList: await videoListB(viewer, p.items), hasMore: p.hasMore });
    },
  }),
];
