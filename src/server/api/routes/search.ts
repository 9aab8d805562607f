/** Family A search: general/search/single and home/search/item (videos), discover/search (users), api/suggest_words (猜你想搜), search/sug (completions) and hot/search/list (热搜). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { guessWords } from '../../services/guess.ts';
import { hotSearchWords } from '../../services/hot-search.ts';
import { searchUsers, searchVideos } from '../../services/search.ts';
import { MAX_SUGGESTIONS, suggestByPrefix } from '../../services/suggest.ts';
import { getById, getBySecUid } from '../../services/users.ts';
import {
  DURATIONS,
  isFiltered,
  PUBLISH_TIMES,
  type Duration,
  type PublishTime,
  type SearchFilters,
  type SortType,
} from '../../../shared/search-filters.ts';
import { SEC_UID, SEC_UID_MAX } from '../../../shared/user-id.ts';
import { homeSearchItemExample } from '../douyin-examples.ts';
import type { Paged, VideoCard } from '../../services/video-cards.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, id, INT4_MAX, int, offset, secUid, text } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, searchUser } from '../schemas.ts';
import { asBit, awemeList, userList, type Asker } from '../shape.ts';

/** Spec point 9: at most 100 characters; the API refuses longer (the search box cuts, the API does not guess). */
const keyword = () => text(1, 100);

/** 筛选 of the video results, with douyin's parameters (src/shared/search-filters.ts); each absent one is 不限 (综合排序). */
const filterInput = {
  sort_type: int(0, 2).optional().describe('0 综合排序, 1 最多点赞, 2 最新发布'),
  publish_time: int(0, 180)
    .refine((v) => (PUBLISH_TIMES as readonly number[]).includes(v), { message: 'not_a_publish_time' })
    .optional()
    .describe('Days: 0 不限, 1 一天内, 7 一周内, 180 半年内'),
  filter_duration: z
    .enum(DURATIONS)
    .optional()
    .describe("Minutes: '0' 不限, '0-1' 1分钟以下, '1-5' 1-5分钟, '5-10000' 5分钟以上"),
};

function filtersOf(input: { sort_type?: number; publish_time?: number; filter_duration?: Duration }): SearchFilters {
  return {
    sortType: (input.sort_type ?? 0) as SortType,
    publishTime: (input.publish_time ?? 0) as PublishTime,
    duration: input.filter_duration ?? '0',
  };
}

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

/** The user a profile's search names: from_user as a numeric uid (else as a sec_uid), or sec_user_id. */
async function searchedUser(fromUser: string | undefined, secUserId: string | undefined) {
  if (fromUser !== undefined && /^\d{1,10}$/.test(fromUser) && Number(fromUser) <= INT4_MAX) {
    const byId = await getById(Number(fromUser), null);
    if (byId) return byId;
  }
  const sec = fromUser ?? secUserId;
  return sec === undefined ? null : getBySecUid(sec, null);
}

/** A request id in douyin.com's logid form (time to the second, then random hex), for extra.logid and log_pb. */
function logId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return stamp + randomBytes(10).toString('hex').toUpperCase();
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
      'Video search (type=general), narrowed and ordered by sort_type, publish_time and filter_duration; offset pages the results and cursor is the next offset; the first page of an unfiltered search is logged for 热搜',
    input: z.object({ keyword: keyword(), offset: offset(), count: count(10), ...filterInput }),
    response: videoResults,
    handler: async ({ input, viewer, request, clientAddress }) => {
      const filters = filtersOf(input);
      // A filter refines a search already made: only the search itself counts towards 热搜.
      const log = isFiltered(filters) ? undefined : { userId: viewer?.id ?? null, address: clientAddress };
      const page = await searchVideos(
        input.keyword,
        { skip: input.offset, count: input.count },
        {
          log,
          filters,
          viewerId: viewer?.id ?? null,
        },
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
      "Video search of the web home (search_channel aweme_video_web): results under aweme_list[].item (type 1) as douyin.com answers, and under data[].aweme_info; from_user (a numeric uid or a sec_uid) or sec_user_id keeps one user's works, a profile's 搜索TA的作品. Only a search of the whole site is logged for 热搜",
    input: z.object({
      keyword: keyword(),
      offset: offset(),
      count: count(10),
      from_user: z.string().min(1).max(SEC_UID_MAX).regex(SEC_UID).optional(),
      sec_user_id: secUid().optional(),
      ...filterInput,
    }),
    response: videoResults
      .extend({
        aweme_list: z.array(z.object({ type: z.literal(1), item: aweme })),
        extra: z.object({
          fatal_item_ids: z.array(z.string()),
          logid: z.string(),
          now: z.number().int().describe('Unix milliseconds'),
          scenes: z.null(),
          search_request_id: z.string(),
        }),
        log_pb: z.object({ impr_id: z.string() }),
        global_doodle_config: z.object({ home_text: z.string(), jump_general: bit, keyword: z.string() }),
        path: z.string(),
      })
      .meta({ examples: [homeSearchItemExample] }),
    handler: async ({ input, viewer, request, clientAddress }) => {
      let authorId: number | undefined;
      if (input.from_user !== undefined || input.sec_user_id !== undefined) {
        const user = await searchedUser(input.from_user, input.sec_user_id);
        if (!user) throw new ApiError(404, 'error.userNotFound');
        authorId = user.id;
      }
      const filters = filtersOf(input);
      const log =
        authorId === undefined && !isFiltered(filters)
          ? { userId: viewer?.id ?? null, address: clientAddress }
          : undefined;
      const page = await searchVideos(
        input.keyword,
        { skip: input.offset, count: input.count },
        {
          log,
          authorId,
          filters,
          viewerId: viewer?.id ?? null,
        },
      );
      const answer = await videoResultsOf({ viewer, request }, page, input.offset);
      const id = logId();
      return {
        ...answer,
        aweme_list: answer.data.map((r) => ({ type: 1 as const, item: r.aweme_info })),
        extra: { fatal_item_ids: [], logid: id, now: Date.now(), scenes: null, search_request_id: id },
        log_pb: { impr_id: id },
        global_doodle_config: { home_text: '', jump_general: 1 as const, keyword: input.keyword },
        path: '/aweme/v1/web/home/search/item/',
      };
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
