/** Family A webcast/feed: a member's 观看历史 → 直播 (rooms they watched), or the rooms on air for a visitor; paged by max_time as Douyin does. */
import { z } from 'zod';
import { liveBefore } from '../../services/live.ts';
import { hostCards, liveWatched } from '../../services/live-history.ts';
import type { UserCard } from '../../services/user-cards.ts';
import { webcastFeedExample } from '../douyin-examples.ts';
import { okA } from '../envelope.ts';
import { count, int } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, liveRoom, user as userSchema } from '../schemas.ts';
import { asBit, liveRoom as shapeRoom, user } from '../shape.ts';
import { mediaUrl } from '../../media-url.ts';

/** The last millisecond of year 9999: any later max_time is not a date. */
const MAX_TIME = 253_402_300_799_999;

const n = () => z.number().int();
const avatar = z.object({ uri: z.string(), url_list: z.array(z.string()), width: n(), height: n() });

/** A live record as douyin's 观看历史 → 直播 lists one, with our room fields (web_rid, data) kept. */
const liveRecord = liveRoom.extend({
  rid: z.string(),
  tags: z.array(z.string()),
  /** 2 on air, 4 ended. */
  live_status: z.union([z.literal(2), z.literal(4)]),
  is_recommend_card: z.boolean(),
  is_pseudo_living: z.boolean(),
  is_live_explore: z.boolean(),
  is_ad: z.boolean(),
  live_reason: z.string(),
  live_source: z.string(),
  content_category: n(),
  camera_type: n(),
  /** When the member last watched it (Unix ms); 0 in the on-air list of a visitor. */
  latest_watch_time: n(),
  latest_watch_time_str: z.string(),
  user_id: n(),
  placeholder: z.object({ msg: z.string(), type: n() }),
  user_info: userSchema,
  UserLiveRecord: z.object({
    user_id: n(),
    user_id_str: z.string(),
    nickname: z.string(),
    sec_uid: z.string(),
    avatar,
    follow_status: n(),
    secret: bit,
    right_text: z.string(),
    under_name_text: z.string(),
    scheduled_text: z.string(),
    announcement_content: z.string(),
    videos: z.array(z.unknown()),
  }),
});

interface Shown {
  room: Parameters<typeof shapeRoom>[0];
  host: UserCard;
  watchedAt: Date | null;
}

function liveRecordOf({ room, host, watchedAt }: Shown): z.input<typeof liveRecord> {
  const shaped = shapeRoom(room);
  const watched = watchedAt ? watchedAt.getTime() : 0;
  return {
    ...shaped,
    rid: String(room.id),
    tags: [],
    live_status: room.live ? 2 : 4,
    is_recommend_card: false,
    is_pseudo_living: false,
    is_live_explore: false,
    is_ad: false,
    live_reason: '',
    live_source: '',
    content_category: 0,
    camera_type: 0,
    latest_watch_time: watched,
    latest_watch_time_str: String(watched),
    user_id: host.id,
    placeholder: { msg: '', type: 0 },
    user_info: user(host),
    UserLiveRecord: {
      user_id: host.id,
      user_id_str: String(host.id),
      nickname: room.host.nickname,
      sec_uid: room.host.secUid,
      avatar: { uri: room.host.avatar, url_list: [mediaUrl(room.host.avatar)], width: 100, height: 100 },
      follow_status: 0,
      secret: 0,
      right_text: '',
      under_name_text: room.title,
      scheduled_text: '',
      announcement_content: '',
      videos: [],
    },
  };
}

export const liveRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/webcast/feed/',
    family: 'A',
    auth: false,
    summary:
      "观看历史 → 直播: for a member the rooms they watched in the last 30 days, latest visit first; for a visitor the rooms on air, latest start first. Each entry is douyin's live record with the room (web_rid, data); max_time (ms, 0 = now) is where the next page begins, also under extra as douyin.com answers",
    input: z.object({ max_time: int(0, MAX_TIME).default(0).meta({ default: 0 }), count: count(20) }),
    response: bodyA({
      data: z.array(liveRecord),
      has_more: bit,
      max_time: n(),
      extra: z.object({
        has_more: z.boolean(),
        max_time: n(),
        max_time_str: z.string(),
        min_time: n(),
        now: n(),
        offset: n(),
        total: n(),
        log_pb: z.object({ impr_id: z.string() }),
      }),
    }).meta({ examples: [webcastFeedExample] }),
    handler: async ({ input, viewer }) => {
      let shown: Shown[];
      let hasMore: boolean;
      let next: number;
      if (viewer) {
        const page = await liveWatched(viewer.id, input.max_time, input.count);
        shown = page.items;
        hasMore = page.hasMore;
        next = page.items.at(-1)?.watchedAt.getTime() ?? input.max_time;
      } else {
        const page = await liveBefore(input.max_time, input.count);
        const hosts = await hostCards([...new Set(page.items.map((r) => r.host.secUid))]);
        // A host is found unless their account went between the two reads: that room is left out.
        shown = page.items.flatMap((r) => {
          const host = hosts.get(r.host.secUid);
          return host ? [{ room: r, host, watchedAt: null }] : [];
        });
        hasMore = page.hasMore;
        next = page.items.at(-1)?.startedAt.getTime() ?? input.max_time;
      }
      const first = shown[0];
      const min = first ? (first.watchedAt ?? first.room.startedAt).getTime() : input.max_time;
      return okA({
        data: shown.map(liveRecordOf),
        has_more: asBit(hasMore),
        max_time: next,
        extra: {
          has_more: hasMore,
          max_time: next,
          max_time_str: String(next),
          min_time: min,
          now: Date.now(),
          offset: shown.length,
          total: 0,
          log_pb: { impr_id: '' },
        },
      });
    },
  }),
];
