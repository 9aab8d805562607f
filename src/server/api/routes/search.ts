/** Family A search: general/search/single and home/search/item (videos), discover/search (users), api/suggest_words (猜你想搜), search/sug (completions) and hot/search/list (热搜). */
import { z } from 'zod';
import { guessWords } from '../../services/guess.ts';
import { hotSearchWords } from '../../services/hot-search.ts';
import { searchUsers, searchVideos } from '../../services/search.ts';
import { MAX_SUGGESTIONS, suggestByPrefix } from '../../services/suggest.ts';
import { getBySecUid } from '../../services/users.ts';
import type { Paged, VideoCard } from '../../services/video-cards.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, id, int, offset, secUid, text } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, searchUser } from '../schemas.ts';
import { asBit, awemeList, userList, type Asker } from '../shape.ts';

/** Spec point 9: at most 100 characters; the API refuses longer (the search box cuts, the API does not guess). */
const keyword = () => text(1, 100);

/** Video results as douyin's search answers them: each under aweme_info, type 1. */
const videoResults = bodyA({
  data: z.array(z.object({ type: z.literal(1), aweme_info: aweme })),
  cursor: z.number().int(),
  has_more: bit,
});

async function videoResultsOf(
  asker: Asker,
  page: Paged<VideoCard>,
  offset: number,
): Promise<z.input<typeof videoResults>> {
  const list = await awemeList(asker, page.items);
  return okA({
    data: list.map((a) => ({ type: 1 as const, aweme_info: a })),
    cursor: offset + list.length,
    has_more: asBit(page.hasMore),
  });
}

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
    summary:
      'Video search (type=general); offset pages the results and cursor is the next offset; the first page is logged for 热搜',
    input: z.object({ keyword: keyword(), offset: offset(), count: count(10) }),
    response: videoResults,
    handler: async ({ input, viewer, request, clientAddress }) => {
      const page = await searchVideos(
        input.keyword,
        { skip: input.offset, count: input.count },
        { log: { userId: viewer?.id ?? null, address: clientAddress } },
      );
      return videoResultsOf({ viewer, request }, page, input.offset);
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/home/search/item/',
    family: 'A',
    auth: false,
    summary:
      "Video search of the web home (search_channel aweme_video_web); from_user (or sec_user_id) keeps one user's works, a profile's search box. Only a search of the whole site is logged for 热搜",
    input: z.object({
      keyword: keyword(),
      offset: offset(),
      count: count(10),
      from_user: secUid().optional(),
      sec_user_id: secUid().optional(),
    }),
    response: videoResults,
    handler: async ({ input, viewer, request, clientAddress }) => {
      const sec = input.from_user ?? input.sec_user_id;
      let authorId: number | undefined;
      if (sec !== undefined) {
        const user = await getBySecUid(sec, null);
        if (!user) throw new ApiError(404, 'error.userNotFound');
        authorId = user.id;
      }
      const page = await searchVideos(
        input.keyword,
        { skip: input.offset, count: input.count },
        authorId === undefined ? { log: { userId: viewer?.id ?? null, address: clientAddress } } : { authorId },
      );
      return videoResultsOf({ viewer, request }, page, input.offset);
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/discover/search/',
    family: 'A',
    auth: false,
    summary: 'User search (type=user) by nickname, with the viewer’s follow status; the first page is logged for 热搜',
    input: z.object({ keyword: keyword(), type: z.enum(['user']).default('user'), offset: offset(), count: count(10) }),
    response: bodyA({
      user_list: z.array(z.object({ user_info: searchUser })),
      cursor: z.number().int(),
      has_more: bit,
    }),
    handler: async ({ input, viewer, clientAddress }) => {
      const page = await searchUsers(
        input.keyword,
        { skip: input.offset, count: input.count },
        { log: { userId: viewer?.id ?? null, address: clientAddress } },
      );
      const list = await userList(viewer, page.items);
      return okA({
        user_list: list.map((u) => ({ user_info: u })),
        cursor: input.offset + list.length,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/api/suggest_words/',
    family: 'A',
    auth: false,
    summary:
      '猜你想搜: completions of query, else the hashtags of from_group_id, words co-searched with the viewer’s searches and hot words; refresh_index (换一换) gives the next set',
    input: z.object({
      query: text(0, 100).optional(),
      from_group_id: id().optional(),
      refresh_index: offset(),
      count: int(1, MAX_SUGGESTIONS).default(MAX_SUGGESTIONS).meta({ default: MAX_SUGGESTIONS }),
    }),
    response: bodyA({ data: z.array(z.object({ words: z.array(z.object({ id: z.string(), word: z.string() })) })) }),
    handler: async ({ input, viewer }) => {
      const query = input.query?.trim() ?? '';
      const [prefixed, guessed] = await Promise.all([
        query ? suggestByPrefix(query, input.count) : Promise.resolve([]),
        guessWords(viewer?.id ?? null, {
          round: input.refresh_index,
          count: input.count,
          videoId: input.from_group_id,
        }),
      ]);
      const words = [...new Set([...prefixed, ...guessed])].slice(0, input.count);
      return okA({ data: [{ words: words.map((word) => ({ id: wordId(word), word })) }] });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/search/sug/',
    family: 'A',
    auth: false,
    summary: 'Completions of a typed prefix: hot words, hashtags, titles (at most 8)',
    input: z.object({ keyword: keyword() }),
    response: bodyA({ sug_list: z.array(z.object({ content: z.string() })) }),
    handler: async ({ input }) => {
      const words = await suggestByPrefix(input.keyword, MAX_SUGGESTIONS);
      return okA({ sug_list: words.map((content) => ({ content })) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/hot/search/list/',
    family: 'A',
    auth: false,
    summary: '热搜: the most searched words of the last 24 hours (decaying) and 7 days',
    input: z.object({ count: count(20) }),
    response: bodyA({
      data: z.object({
        active_time: z.string(),
        word_list: z.array(
          z.object({
            sentence_id: z.string(),
            word: z.string(),
            hot_value: z.number().int(),
            position: z.number().int(),
          }),
        ),
      }),
    }),
    anonymousCacheMs: 2000,
    handler: async ({ input }) => {
      const words = await hotSearchWords(input.count);
      return okA({
        data: {
          active_time: new Date().toISOString(),
          word_list: words.map((w, i) => ({
            sentence_id: String(w.sentenceId),
            word: w.word,
            hot_value: w.hotValue,
            position: i + 1,
          })),
        },
      });
    },
  }),
];
