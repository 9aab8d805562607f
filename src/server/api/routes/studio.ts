/** The creator studio (/post), Family B: its limits, an upload's state, and the author's works (create, list, edit, delete). */
import { z } from 'zod';
import { t } from '../../../i18n/t.ts';
import type { MessageKey } from '../../../i18n/zh-CN.ts';
import {
  COVER_EXTENSIONS,
  GEARS,
  STUDIO_API,
  TITLE_MAX,
  TUS_ENDPOINT,
  UPLOAD_KINDS,
  UPLOAD_STATUSES,
  VIDEO_EXTENSIONS,
  VISIBILITIES,
  WORK_STATUSES,
  type StudioConfig,
  type StudioWork,
  type StudioWorkPage,
  type UploadView,
} from '../../../shared/studio.ts';
import { MAX_DURATION_SEC, MIN_DURATION_SEC } from '../../media/checks.ts';
import { createWork, deleteWork, editWork, getWork, listWorks, WORK_PAGE } from '../../services/studio.ts';
import { getUpload, uploadCap } from '../../services/uploads.ts';
import { CHANNEL_IDS } from '../../services/videos.ts';
import { okB } from '../envelope.ts';
import { once } from '../idempotency.ts';
import { cursor, id, int } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB, nextCursor } from '../schemas.ts';

const n = () => z.number().int();
const api = (path: string) => path.replace(/^\/api/, '');

/** Each channel's name in the catalogue (the sidebar's labels). */
export const CHANNEL_NAMES: Record<(typeof CHANNEL_IDS)[number], MessageKey> = {
  300201: 'nav.entertainment',
  300203: 'nav.knowledge',
  300204: 'nav.food',
  300205: 'nav.game',
  300206: 'nav.anime',
  300207: 'nav.sports',
  300208: 'nav.fashion',
  300209: 'nav.music',
};

// Forms send '1'/'0' or 'true'/'false'; JSON bodies send booleans.
const bool = () =>
  z.preprocess(
    (v) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v === '' ? undefined : v),
    z.boolean(),
  );
// Seconds with up to three decimals, as a string from a form or a number from JSON.
const seconds = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' && /^\d{1,5}(\.\d{1,3})?$/.test(v) ? Number(v) : v),
    z.number().min(0).max(86_400),
  );
const uploadId = () => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const title = () => z.string().max(TITLE_MAX * 4);

const configB = z.object({
  tusEndpoint: z.string(),
  maxBytes: n(),
  coverMaxBytes: n(),
  minDurationSec: n(),
  maxDurationSec: n(),
  videoExtensions: z.array(z.string()),
  coverExtensions: z.array(z.string()),
  titleMax: n(),
  channels: z.array(z.object({ id: n(), name: z.string() })),
  visibilities: z.array(z.enum(VISIBILITIES)),
}) satisfies z.ZodType<StudioConfig>;

const uploadB = z.object({
  id: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  fileName: z.string(),
  sizeBytes: n(),
  receivedBytes: n(),
  status: z.enum(UPLOAD_STATUSES),
  reason: z.string().nullable(),
  durationMs: n().nullable(),
  width: n().nullable(),
  height: n().nullable(),
  poster: z.string().nullable(),
  workId: n().nullable(),
}) satisfies z.ZodType<UploadView>;

const workB = z.object({
  id: n(),
  title: z.string(),
  hashtags: z.array(z.string()),
  channelId: n(),
  visibility: z.enum(VISIBILITIES),
  allowComments: z.boolean(),
  status: z.enum(WORK_STATUSES),
  reason: z.string().nullable(),
  cover: z.string(),
  coverTime: z.number().nullable(),
  fileName: z.string(),
  durationMs: n(),
  width: n(),
  height: n(),
  sizeBytes: n(),
  playCount: n(),
  diggCount: n(),
  commentCount: n(),
  shareCount: n(),
  collectCount: n(),
  createTime: n(),
  renditions: z.array(
    z.object({
      gear: z.union(GEARS.map((g) => z.literal(g)) as [z.ZodLiteral<540>, z.ZodLiteral<720>, z.ZodLiteral<1080>]),
      width: n(),
      height: n(),
      bitRate: n(),
      sizeBytes: n(),
      url: z.string(),
    }),
  ),
}) satisfies z.ZodType<StudioWork>;

const workPageB = z.object({
  items: z.array(workB),
  cursor: nextCursor,
  hasMore: z.boolean(),
}) satisfies z.ZodType<StudioWorkPage>;

const channelId = () => int(0, 999_999);

export const studioRoutes = [
  route({
    method: 'GET',
    path: api(STUDIO_API.config),
    family: 'B',
    auth: false,
    summary: 'The studio’s limits: upload cap (UPLOAD_MAX_BYTES), durations, accepted files, title length, channels',
    input: z.object({}),
    response: bodyB(configB),
    handler: async () =>
      okB({
        tusEndpoint: TUS_ENDPOINT,
        maxBytes: uploadCap('video'),
        coverMaxBytes: uploadCap('cover'),
        minDurationSec: MIN_DURATION_SEC,
        maxDurationSec: MAX_DURATION_SEC,
        videoExtensions: [...VIDEO_EXTENSIONS],
        coverExtensions: [...COVER_EXTENSIONS],
        titleMax: TITLE_MAX,
        channels: CHANNEL_IDS.map((c) => ({ id: c, name: t(CHANNEL_NAMES[c]) })),
        visibilities: [...VISIBILITIES],
      }),
  }),
  route({
    method: 'GET',
    path: api(STUDIO_API.upload),
    family: 'B',
    auth: true,
    summary:
      'One of my uploads: bytes received, status (uploading, processing, ready, rejected with a reason), probe and poster',
    input: z.object({ uploadId: uploadId() }),
    response: bodyB(uploadB),
    handler: async ({ input, viewer }) => okB(await getUpload(viewer.id, input.uploadId)),
  }),
  route({
    method: 'POST',
    path: api(STUDIO_API.create),
    idempotent: true,
    family: 'B',
    auth: true,
    summary:
      'Publish a work from a finished video upload: title (#hashtags, @mentions), channelId, cover (coverTime s or coverUploadId), visibility, allowComments',
    input: z.object({
      uploadId: uploadId(),
      title: title(),
      channelId: channelId(),
      coverTime: seconds().optional(),
      coverUploadId: uploadId().optional(),
      visibility: z.enum(VISIBILITIES).optional(),
      allowComments: bool().optional(),
    }),
    response: bodyB(workB),
    handler: async (ctx) =>
      okB(
        await once(
          ctx,
          'work',
          (key) => createWork(ctx.viewer.id, ctx.input, key),
          (videoId) => getWork(ctx.viewer.id, videoId),
        ),
      ),
  }),
  route({
    method: 'GET',
    path: api(STUDIO_API.works),
    family: 'B',
    auth: true,
    summary: 'My works, newest first, every status, with plays, likes and comments',
    input: z.object({ cursor: cursor(), size: int(1, 50).default(WORK_PAGE).meta({ default: WORK_PAGE }) }),
    response: bodyB(workPageB),
    handler: async ({ input, viewer }) => okB(await listWorks(viewer.id, { cursor: input.cursor, count: input.size })),
  }),
  route({
    method: 'GET',
    path: api(STUDIO_API.work),
    family: 'B',
    auth: true,
    summary: 'One of my works',
    input: z.object({ workId: id() }),
    response: bodyB(workB),
    handler: async ({ input, viewer }) => okB(await getWork(viewer.id, input.workId)),
  }),
  route({
    method: 'POST',
    path: api(STUDIO_API.edit),
    family: 'B',
    auth: true,
    summary:
      'Change a work of mine: title, channelId, cover (coverTime or coverUploadId), visibility, allowComments; absent fields stay',
    input: z.object({
      workId: id(),
      title: title().optional(),
      channelId: channelId().optional(),
      coverTime: seconds().optional(),
      coverUploadId: uploadId().optional(),
      visibility: z.enum(VISIBILITIES).optional(),
      allowComments: bool().optional(),
    }),
    response: bodyB(workB),
    handler: async ({ input, viewer }) => okB(await editWork(viewer.id, input)),
  }),
  route({
    method: 'POST',
    path: api(STUDIO_API.remove),
    family: 'B',
    auth: true,
    summary: 'Delete a work of mine: gone from every list at once, its files removed by a job',
    input: z.object({ workId: id() }),
    response: bodyB(z.object({ workId: n() })),
    handler: async ({ input, viewer }) => {
      await deleteWork(viewer.id, input.workId);
      return okB({ workId: input.workId });
    },
  }),
];
