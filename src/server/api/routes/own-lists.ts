/** Family A lists of the viewer's own: 稍后再看, 收藏夹 and a folder's videos, and the works only they may see (私密). */
import { z } from 'zod';
import { t } from '../../../i18n/t.ts';
import { mediaUrl } from '../../media-url.ts';
import { collectFolder, collectFolderVideos, type CollectFolder } from '../../services/collect-folders.ts';
import { bounds, toPage } from '../../services/video-cards.ts';
import { privateWorks, profileTab } from '../../services/videos.ts';
import { unavailableWatchLater } from '../../services/watch-later.ts';
import { watchLaterExample } from '../douyin-examples.ts';
import { okA } from '../envelope.ts';
import { count, cursor, id } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, nextCursor, urlList } from '../schemas.ts';
import { asBit, awemeList, unix } from '../shape.ts';

const n = () => z.number().int();

/** A 收藏夹 as douyin's collects_list entry. */
const collectsFolder = z.object({
  collects_id: n(),
  collects_id_str: z.string(),
  collects_name: z.string(),
  collects_cover: urlList,
  /** Videos in the folder. */
  total_number: n(),
  create_time: n(),
  last_collect_time: n().describe('0 while empty'),
  is_private: bit,
  user_id: n(),
  user_id_str: z.string(),
  status: z.literal(1),
  is_normal_status: z.literal(true),
});

function shapeFolder(f: CollectFolder): z.input<typeof collectsFolder> {
  return {
    collects_id: f.id,
    collects_id_str: String(f.id),
    collects_name: t('profile.collects.defaultFolder'),
    collects_cover: { url_list: f.cover === null ? [] : [mediaUrl(f.cover)] },
    total_number: f.total,
    create_time: unix(f.createdAt),
    last_collect_time: f.lastCollectAt === null ? 0 : unix(f.lastCollectAt),
    is_private: asBit(f.isPrivate),
    user_id: f.ownerId,
    user_id_str: String(f.ownerId),
    status: 1,
    is_normal_status: true,
  };
}

export const ownListRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/watchlater/list/',
    family: 'A',
    auth: true,
    summary:
      "The viewer's 稍后再看, latest added first, under items as douyin.com answers (and aweme_list); invalid_item_ids names entries whose work no longer plays (on the first page); offset is where the next page starts (a cursor)",
    input: z.object({ offset: cursor(), count: count(20) }),
    response: bodyA({
      status_msg: z.string(),
      items: z.array(aweme),
      invalid_item_ids: z.array(z.string()),
      aweme_list: z.array(aweme),
      offset: nextCursor,
      has_more: bit,
    }).meta({ examples: [watchLaterExample] }),
    handler: async ({ input, viewer, request }) => {
      const [p, invalid] = await Promise.all([
        profileTab(viewer.id, 'watch_later', { cursor: input.offset, count: input.count }, viewer.id),
        input.offset === undefined ? unavailableWatchLater(viewer.id) : [],
      ]);
      const list = await awemeList({ viewer, request }, p.items);
      return okA({
        status_msg: '',
        items: list,
        invalid_item_ids: invalid.map(String),
        aweme_list: list,
        offset: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/collects/list/',
    family: 'A',
    auth: true,
    summary: "The viewer's 收藏夹: one folder holding every video they collected (its collects_id is the viewer's uid)",
    input: z.object({ cursor: cursor(), count: count(10) }),
    response: bodyA({ collects_list: z.array(collectsFolder), cursor: nextCursor, has_more: bit, total_number: n() }),
    handler: async ({ input, viewer }) => {
      const folders = [await collectFolder(viewer.id, viewer.id)];
      const { offset, limit } = bounds({ cursor: input.cursor, count: input.count });
      const page = toPage(folders.slice(offset, offset + limit + 1), offset, limit);
      return okA({
        collects_list: page.items.map(shapeFolder),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        total_number: folders.length,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/collects/video/list/',
    family: 'A',
    auth: false,
    summary:
      "A 收藏夹's videos, latest collect first (another user's folder only while they keep 收藏 public); cursor is where the next page starts",
    input: z.object({ collects_id: id(), cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(aweme), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const p = await collectFolderVideos(input.collects_id, viewer?.id ?? null, {
        cursor: input.cursor,
        count: input.count,
      });
      return okA({
        aweme_list: await awemeList({ viewer, request }, p.items),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/private/aweme/',
    family: 'A',
    auth: true,
    summary:
      "The viewer's works that only they may see (仅自己可见), newest first; max_cursor is where the next page starts",
    input: z.object({ max_cursor: cursor(), count: count(18) }),
    response: bodyA({ aweme_list: z.array(aweme), max_cursor: nextCursor, min_cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const p = await privateWorks(viewer.id, { cursor: input.max_cursor, count: input.count });
      return okA({
        aweme_list: await awemeList({ viewer, request }, p.items),
        max_cursor: p.cursor,
        min_cursor: input.max_cursor ?? '0',
        has_more: asBit(p.hasMore),
      });
    },
  }),
];
