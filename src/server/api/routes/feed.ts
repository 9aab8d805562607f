/**
 * Family A feeds: tab/feed (推荐), module/feed (首页 cards whose aweme is a JSON string) and v2 module/feed (the same
 * awemes as aweme_list, as douyin.com's web client POSTs it).
 */
import { z } from 'zod';
import { reasonsOf } from '../../services/feed-reasons.ts';
import { byChannel, discover, isChannel, recommend, type FeedCard } from '../../services/videos.ts';
import { okA } from '../envelope.ts';
import { count, cursor, int, INT4_MAX } from '../params.ts';
import { route, type Method } from '../registry.ts';
import { aweme, bodyA, bit, feedAweme, nextCursor } from '../schemas.ts';
import { asBit, awemeList, reasonA, type Asker } from '../shape.ts';

/**
 * refresh_index is a 1-based page number (0 counts as the first page), as douyin.com's client counts its refreshes;
 * a `cursor` from the previous answer pages instead, at the same cost however deep.
 */
const refreshIndex = () => int(0, 100_000).default(1).meta({ default: 1 });
const pageOf = (input: { cursor?: string; refresh_index: number; count: number }) =>
  input.cursor === undefined
    ? { skip: (Math.max(input.refresh_index, 1) - 1) * input.count, count: input.count }
    : { cursor: input.cursor, count: input.count };

// douyin.com's client sends many more fields (pre_item_ids, awemePcRecRawData, ...); undeclared ones are dropped unread.
const moduleFeedV2Input = z.object({
  count: count(20),
  refresh_index: refreshIndex(),
  cursor: cursor().describe('The previous answer’s cursor; when given it pages instead of refresh_index'),
  // douyin.com sends tag_id= (empty) for the 首页 feed itself.
  tag_id: z
    .union([z.literal(''), int(0, INT4_MAX)])
    .optional()
    .describe('A channel id pages that channel; other tags (or none) the 首页 feed'),
  module_id: z
    .union([z.string().max(64), z.number()])
    .optional()
    .describe('Accepted, not used'),
  pull_type: z
    .union([z.string().max(64), z.number()])
    .optional()
    .describe('Accepted, not used'),
});

/** The recommend feed's items as awemes, each with its recommend_reason (为什么推荐). */
async function feedAwemes(asker: Asker, items: FeedCard[]) {
  const [list, reasons] = await Promise.all([awemeList(asker, items), reasonsOf(items)]);
  return list.map((a, i) => ({ ...a, recommend_reason: reasonA(reasons.get(items[i]!.id)!) }));
}

async function moduleFeedV2Answer(input: z.output<typeof moduleFeedV2Input>, asker: Asker) {
  const page = pageOf(input);
  const tag = input.tag_id;
  const viewerId = asker.viewer?.id ?? null;
  const p =
    typeof tag === 'number' && isChannel(tag) ? await byChannel(tag, page, viewerId) : await discover(page, viewerId);
  return okA({ aweme_list: await awemeList(asker, p.items), has_more: asBit(p.hasMore), cursor: p.cursor });
}

const moduleFeedV2 = (method: Method) =>
  route({
    method,
    path: '/aweme/v2/web/module/feed/',
    family: 'A',
    auth: false,
    readOnly: true,
    summary:
      '首页 module feed as aweme_list (douyin.com POSTs it as a form): refresh_index pages by count, or cursor from the previous answer',
    input: moduleFeedV2Input,
    response: bodyA({ aweme_list: z.array(aweme), has_more: bit, cursor: nextCursor }),
    // A POST's fields are in its body, which the anonymous cache's key does not see.
    ...(method === 'GET' ? { anonymousCacheMs: 2000 } : {}),
    handler: ({ input, viewer, request }) => moduleFeedV2Answer(input, { viewer, request }),
  });

export const feedRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/tab/feed/',
    family: 'A',
    auth: false,
    summary:
      '推荐 feed, ranked for the viewer; refresh_index pages by count, or cursor from the previous answer. Each aweme says why it was picked (recommend_reason)',
    input: z.object({ count: count(10), refresh_index: refreshIndex(), cursor: cursor() }),
    response: bodyA({ aweme_list: z.array(feedAweme), has_more: bit, cursor: nextCursor }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const page = await recommend(viewer?.id ?? null, pageOf(input));
      return okA({
        aweme_list: await feedAwemes({ viewer, request }, page.items),
        has_more: asBit(page.hasMore),
        cursor: page.cursor,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/module/feed/',
    family: 'A',
    auth: false,
    summary:
      '首页 module feed: cards whose `aweme` is the JSON string of an aweme; refresh_index pages by count, or cursor',
    input: z.object({ count: count(20), refresh_index: refreshIndex(), cursor: cursor() }),
    response: bodyA({
      cards: z.array(z.object({ type: z.literal(1), aweme: z.string().describe('JSON of an aweme') })),
      has_more: bit,
      cursor: nextCursor,
    }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer, request }) => {
      const page = await discover(pageOf(input), viewer?.id ?? null);
      const list = await awemeList({ viewer, request }, page.items);
      return okA({
        cards: list.map((a) => ({ type: 1 as const, aweme: JSON.stringify(a) })),
        has_more: asBit(page.hasMore),
        cursor: page.cursor,
      });
    },
  }),
  moduleFeedV2('GET'),
  moduleFeedV2('POST'),
];
