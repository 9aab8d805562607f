/** Family A watch history: history/read (every video, with progress) and lvideo/query/history (放映厅 series). */
import { z } from 'zod';
import { t } from '../../../i18n/t.ts';
import { mediaUrl } from '../../media-url.ts';
import { theatreHistory, type WatchedSeries } from '../../services/theatre.ts';
import { historyPage } from '../../services/videos.ts';
import { lvideoHistoryExample } from '../douyin-examples.ts';
import { okA } from '../envelope.ts';
import { count, cursor } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, historyAweme, nextCursor } from '../schemas.ts';
import { asBit, historyList, unix } from '../shape.ts';

const n = () => z.number().int();

/** A series in douyin's 影视综 history: the album (our series) and the episode watched last, with how far. */
const lvideoEntry = z.object({
  album_id: z.string(),
  album_item_id: z.string(),
  album_type: n(),
  title: z.string(),
  title_before: z.string(),
  title_after: z.string(),
  /** The series' cover. */
  cover_url: z.string(),
  episode_id: z.string(),
  episode_item_id: z.string(),
  episode_type: n(),
  /** 1-based episode number. */
  seq: n(),
  episode_look_at: z.string(),
  updated_episode: z.string(),
  has_update: z.boolean(),
  /** Seconds watched of that episode. */
  progress: n(),
  /** Milliseconds watched of that episode. */
  msec: n(),
  /** When it was watched (Unix seconds). */
  play_time: n(),
  expired_time: n(),
  label: n(),
  label_v2: n(),
  purchase_status: n(),
  pay_info: z.object({ pay_status: z.boolean(), pay_type: n() }),
  scheme_url: z.string(),
});

function lvideoEntryOf(w: WatchedSeries): z.input<typeof lvideoEntry> {
  return {
    album_id: String(w.series.id),
    album_item_id: String(w.series.id),
    album_type: 1,
    title: w.series.title,
    title_before: '',
    title_after: '',
    cover_url: mediaUrl(w.series.cover),
    episode_id: String(w.episode.id),
    episode_item_id: String(w.episode.id),
    episode_type: 1,
    seq: w.position,
    episode_look_at: t('vs.lookAt', { episode: w.position }),
    updated_episode: t('vs.updatedTo', { count: w.series.itemCount }),
    has_update: false,
    progress: Math.floor(w.progressMs / 1000),
    msec: w.progressMs,
    play_time: unix(w.watchedAt),
    expired_time: 0,
    label: 0,
    label_v2: 0,
    purchase_status: 0,
    pay_info: { pay_status: false, pay_type: 0 },
    scheme_url: '',
  };
}

export const historyRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/history/read/',
    family: 'A',
    auth: true,
    summary:
      "The viewer's watch history of the last 30 days with progress, latest first; max_cursor is where the next page starts",
    input: z.object({ max_cursor: cursor(), count: count(20) }),
    response: bodyA({ aweme_list: z.array(historyAweme), max_cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const page = await historyPage(viewer.id, { cursor: input.max_cursor, count: input.count });
      return okA({
        aweme_list: await historyList({ viewer, request }, page.items),
        max_cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/lvideo/query/history/',
    family: 'A',
    auth: true,
    summary:
      '观看历史 → 影视综: the 放映厅 series the viewer watched in the last 30 days, latest first, one per series at the episode watched last: lvideo_history_list as douyin.com answers, and that episode under aweme_list; cursor is where the next page starts',
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: bodyA({
      status_msg: z.string(),
      lvideo_history_list: z.array(lvideoEntry),
      aweme_list: z.array(historyAweme),
      cursor: nextCursor,
      has_more: bit,
      extra: z.object({ fatal_item_ids: z.array(z.string()), logid: z.string(), now: z.number().int() }),
      log_pb: z.object({ impr_id: z.string() }),
    }).meta({ examples: [lvideoHistoryExample] }),
    handler: async ({ input, viewer, request }) => {
      const page = await theatreHistory(viewer.id, { cursor: input.cursor, count: input.count });
      const episodes = page.items.map((w) => ({ ...w.episode, progressMs: w.progressMs, watchedAt: w.watchedAt }));
      return okA({
        status_msg: '',
        lvideo_history_list: page.items.map(lvideoEntryOf),
        aweme_list: await historyList({ viewer, request }, episodes),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        extra: { fatal_item_ids: [], logid: '', now: Date.now() },
        log_pb: { impr_id: '' },
      });
    },
  }),
];
