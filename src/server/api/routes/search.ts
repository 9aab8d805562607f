/** Family A search: general/search/single, api/suggest_words (猜你想搜), search/sug (prefix completions) and hot/search/list (热搜). */
import { z } from 'zod';
import { hotSearchWords, searchVideos, suggestByPrefix } from '../../services/search.ts';
import { getDetail } from '../../services/videos.ts';
import { okA } from '../envelope.ts';
import { count, cursor, id, text } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA } from '../schemas.ts';
import { asBit, awemeList } from '../shape.ts';

/** Spec point 9: at most 100 characters; the API refuses longer (the search box cuts, the API does not guess). */
const keyword = () => text(1, 100);
const SUGGESTIONS = 8;

/** A stable id for a suggested word (FNV-1a of its UTF-16 units). */
function wordId(word: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return String(h >>> 0);
}

export const searchRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/general/search/single/',
    family: 'A',
    auth: false,
    summary: 'Video search; offset pages the results and cursor is the next offset',
    input: z.object({ keyword: keyword(), offset: cursor(), count: count(10) }),
    response: bodyA({
      data: z.array(z.object({ type: z.literal(1), aweme_info: aweme })),
      cursor: z.number().int(),
      has_more: bit,
    }),
    handler: async ({ input, viewer }) => {
      const page = await searchVideos(input.keyword, { cursor: input.offset, count: input.count });
      const list = await awemeList(viewer, page.items);
      return okA({
        data: list.map((a) => ({ type: 1 as const, aweme_info: a })),
        cursor: page.hasMore ? page.cursor : input.offset + list.length,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/api/suggest_words/',
    family: 'A',
    auth: false,
    summary: '猜你想搜: completions of query, the hashtags of from_group_id, then hot words (at most 8)',
    input: z.object({ query: text(0, 100).optional(), from_group_id: id().optional() }),
    response: bodyA({ data: z.array(z.object({ words: z.array(z.object({ id: z.string(), word: z.string() })) })) }),
    handler: async ({ input }) => {
      const query = input.query?.trim() ?? '';
      const [prefixed, detail, hot] = await Promise.all([
        query ? suggestByPrefix(query, SUGGESTIONS) : Promise.resolve([]),
        // A hint only: an unknown or deleted video just adds no words.
        input.from_group_id ? getDetail(input.from_group_id, null) : Promise.resolve(null),
        hotSearchWords(SUGGESTIONS * 2),
      ]);
      const words = [...new Set([...prefixed, ...(detail?.hashtags ?? []), ...hot.map((w) => w.word)])].slice(0, SUGGESTIONS);
      return okA({ data: [{ words: words.map((word) => ({ id: wordId(word), word })) }] });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/search/sug/',
    family: 'A',
    auth: false,
    summary: 'Completions of a typed prefix: searched queries, hashtags, titles (at most 8)',
    input: z.object({ keyword: keyword() }),
    response: bodyA({ sug_list: z.array(z.object({ content: z.string() })) }),
    handler: async ({ input }) => {
      const words = await suggestByPrefix(input.keyword, SUGGESTIONS);
      return okA({ sug_list: words.map((content) => ({ content })) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/hot/search/list/',
    family: 'A',
    auth: false,
    summary: '热搜: the most searched words of the last days, decaying',
    input: z.object({ count: count(20) }),
    response: bodyA({
      data: z.object({
        active_time: z.string(),
        word_list: z.array(z.object({ sentence_id: z.string(), word: z.string(), hot_value: z.number().int(), position: z.number().int() })),
      }),
    }),
    anonymousCacheMs: 2000,
    handler: async ({ input }) => {
      const words = await hotSearchWords(input.count);
      return okA({
        data: {
          active_time: new Date().toISOString(),
          word_list: words.map((w, i) => ({ sentence_id: String(w.sentenceId), word: w.word, hot_value: w.hotValue, position: i + 1 })),
        },
      });
    },
  }),
];
