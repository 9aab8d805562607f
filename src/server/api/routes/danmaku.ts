/** Family A 弹幕: a video's danmaku in time order, and sending one at a point of the video (logged in, rate-limited). */
import { z } from 'zod';
import { DANMAKU_RATE, listDanmaku, MAX_DANMAKU, sendDanmaku, type DanmakuView } from '../../services/danmaku.ts';
import { ApiError, okA } from '../envelope.ts';
import { id, int, INT4_MAX, text } from '../params.ts';
import { route } from '../registry.ts';
import { bodyA } from '../schemas.ts';
import { unix } from '../shape.ts';

const danmakuItem = z.object({
  danmaku_id: z.string(),
  aweme_id: z.string(),
  user_id: z.string(),
  text: z.string(),
  /** Milliseconds into the video. */
  offset_ms: z.number().int(),
  create_time: z.number().int(),
});

const shape = (d: DanmakuView): z.input<typeof danmakuItem> => ({
  danmaku_id: String(d.id),
  aweme_id: String(d.videoId),
  user_id: String(d.userId),
  text: d.text,
  offset_ms: d.offsetMs,
  create_time: unix(d.createdAt),
});

export const danmakuRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/danmaku/list/',
    family: 'A',
    auth: false,
    summary: "A video's danmaku in time order (offset_ms), at most 1000",
    input: z.object({ aweme_id: id() }),
    response: bodyA({ danmaku_list: z.array(danmakuItem), total: z.number().int() }),
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer }) => {
      const list = await listDanmaku(input.aweme_id, viewer?.id ?? null);
      if (!list) throw new ApiError(404, 'error.videoNotFound');
      return okA({ danmaku_list: list.map(shape), total: list.length });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/danmaku/send/',
    family: 'A',
    auth: true,
    summary: `Send a danmaku (1 to ${MAX_DANMAKU} characters) at offset_ms into the video; ${DANMAKU_RATE.limit} per user per minute, then 429`,
    input: z.object({
      aweme_id: id(),
      text: text(1, MAX_DANMAKU),
      offset_ms: int(0, INT4_MAX).default(0).meta({ default: 0 }),
    }),
    response: bodyA({ danmaku: danmakuItem }),
    handler: async ({ input, viewer }) => {
      const sent = await sendDanmaku(viewer.id, input.aweme_id, input.text, input.offset_ms);
      return okA({ danmaku: shape(sent) });
    },
  }),
];
