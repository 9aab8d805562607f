/** Family A 互动消息: the viewer's notifications by filter, the unread count, and marking them read. */
import { z } from 'zod';
import { mediaUrl } from '../../media-url.ts';
import {
  listNotifications,
  markAllRead,
  NOTICE_PAGE,
  unreadCount,
  type NotificationView,
} from '../../services/notifications.ts';
import { exportDownloadPath } from '../../../shared/account.ts';
import { NOTICE_GROUP_NAMES, NOTICE_KINDS, type Notice } from '../../../shared/messaging.ts';
import { okA } from '../envelope.ts';
import { count, int } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, imUser, urlList } from '../schemas.ts';
import { asBit, imUser as shapeImUser } from '../shape.ts';

const notice = z.object({
  nid: z.string(),
  type: z.enum(NOTICE_KINDS),
  /** Unix milliseconds. */
  create_time: z.number().int(),
  is_read: bit,
  actor: imUser,
  content: z.string().nullable(),
  aweme: z.object({ aweme_id: z.string(), cover: urlList }).nullable(),
  /** export_ready: where the member downloads their data (only they may, until it expires); null otherwise. */
  download_url: z.string().nullable(),
  room_id: z.string().nullable(),
});

const unreadBody = bodyA({ total_unread: z.number().int() });

function shapeNotice(n: NotificationView): Notice {
  return {
    nid: String(n.id),
    type: n.kind,
    create_time: n.createdAt.getTime(),
    is_read: asBit(n.readAt !== null),
    actor: shapeImUser(n.actor, n.actorIsFollowed, n.followsMe),
    content: n.comment,
    aweme: n.video ? { aweme_id: String(n.video.id), cover: { url_list: [mediaUrl(n.video.poster)] } } : null,
    download_url: n.exportId === null ? null : exportDownloadPath(n.exportId),
    room_id: n.roomId === null ? null : String(n.roomId),
  };
}

export const noticeRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/notice/',
    family: 'A',
    auth: true,
    summary: `The viewer's notifications of one filter (notice_group: ${NOTICE_GROUP_NAMES.join(', ')}), newest first; pass back cursor for the next page`,
    input: z.object({
      notice_group: z.enum(NOTICE_GROUP_NAMES).default('all').meta({ default: 'all' }),
      // The time of the last row in microseconds (beyond int4), 0 for the first page.
      cursor: int(0, Number.MAX_SAFE_INTEGER).default(0).meta({ default: 0 }),
      count: count(NOTICE_PAGE),
    }),
    response: bodyA({
      notice_list: z.array(notice),
      cursor: z.number().int(),
      has_more: bit,
      total_unread: z.number().int(),
    }),
    handler: async ({ input, viewer }) => {
      const page = await listNotifications(viewer.id, {
        group: input.notice_group,
        cursor: input.cursor,
        count: input.count,
      });
      return okA({
        notice_list: page.items.map(shapeNotice),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        total_unread: page.unread,
      });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/notice/read/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: "Marks all the viewer's notifications read; every open page's badge hears `notice`",
    input: z.object({}),
    response: unreadBody,
    handler: async ({ viewer }) => {
      await markAllRead(viewer.id);
      return okA({ total_unread: 0 });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/notice/count/',
    family: 'A',
    auth: true,
    summary: "The number of the viewer's unread notifications",
    input: z.object({}),
    response: unreadBody,
    handler: async ({ viewer }) => okA({ total_unread: await unreadCount(viewer.id) }),
  }),
];
