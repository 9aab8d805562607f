/** The studio's 直播 page (Family B): settings, the stream key (shown once), the cover, and the broadcast's state. */
import { z } from 'zod';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { t } from '../../../i18n/t.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { LIVE_API, type LiveStudio } from '../../../shared/live.ts';
import { liveConfig, RTMP_APP } from '../../live/config.ts';
import { mediaStore } from '../../media/store.ts';
import { mediaUrl } from '../../media-url.ts';
import { invalid } from '../../errors.ts';
import { currentBroadcast, setCover } from '../../services/live-broadcasts.ts';
import {
  getSettings,
  issueKey,
  LIVE_KEY_RATE,
  LIVE_SETTINGS_RATE,
  LIVE_TITLE_MAX,
  saveSettings,
} from '../../services/live-hosts.ts';
import { enforce } from '../../services/rate-limit.ts';
import { coverFromUpload } from '../../services/studio.ts';
import { CHANNEL_IDS } from '../../services/videos.ts';
import { okB } from '../envelope.ts';
import { flag, int } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';
import { CHANNEL_NAMES } from './studio.ts';

const n = () => z.number().int();
const api = (p: string) => p.replace(/^\/api/, '');
const bool = () =>
  z.preprocess((v) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v), z.boolean());

const studioB = z.object({
  title: z.string(),
  channelId: n(),
  record: z.boolean(),
  cover: z.string().nullable(),
  server: z.string(),
  hasKey: z.boolean(),
  keyCreatedAt: n().nullable(),
  maxKbps: n(),
  titleMax: n(),
  channels: z.array(z.object({ id: n(), name: z.string() })),
  broadcast: z
    .object({
      roomId: n(),
      state: z.enum(['live', 'paused']),
      startedAt: n(),
      viewers: n(),
      likes: n(),
      frame: z.string().nullable(),
      ingest: z
        .object({
          width: n(),
          height: n(),
          fps: n(),
          kbps: n(),
          videoCodec: z.string(),
          audioCodec: z.string(),
        })
        .nullable(),
    })
    .nullable(),
  refusal: z.object({ reason: z.string(), at: n() }).nullable(),
}) satisfies z.ZodType<LiveStudio>;

/**
 * The RTMP server as the host's tool reaches it: LIVE_RTMP_URL, else this site's host name (the request context's:
 * PUBLIC_URL's, else the Host header's) on RTMP_PORT.
 */
export function rtmpServer(context: RequestContext): string {
  const { publicRtmpUrl, rtmpPort } = liveConfig();
  if (publicRtmpUrl)
    return publicRtmpUrl.includes('/', 'rtmp://'.length + 1) ? publicRtmpUrl : `${publicRtmpUrl}/${RTMP_APP}`;
  const host = new URL(context.origin).hostname;
  return `rtmp://${host}:${rtmpPort}/${RTMP_APP}`;
}

async function studio(userId: number, context: RequestContext): Promise<LiveStudio> {
  const [s, b] = await Promise.all([getSettings(userId), currentBroadcast(userId)]);
  return {
    title: s.title,
    channelId: s.channelId,
    record: s.record,
    cover: s.cover ? mediaUrl(s.cover) : null,
    server: rtmpServer(context),
    hasKey: s.hasKey,
    keyCreatedAt: s.keyCreatedAt?.getTime() ?? null,
    maxKbps: liveConfig().maxKbps,
    titleMax: LIVE_TITLE_MAX,
    channels: CHANNEL_IDS.map((c) => ({ id: c, name: t(CHANNEL_NAMES[c]) })),
    broadcast: b && {
      roomId: b.id,
      state: b.pausedAt ? 'paused' : 'live',
      startedAt: b.startedAt.getTime(),
      viewers: b.viewerCount,
      likes: b.likeCount,
      frame: b.thumb ? mediaUrl(b.thumb) : null,
      ingest: b.ingest && {
        width: b.ingest.width,
        height: b.ingest.height,
        fps: b.ingest.fps,
        kbps: b.ingest.kbps,
        videoCodec: b.ingest.videoCodec,
        audioCodec: b.ingest.audioCodec,
      },
    },
    // A refusal from before the broadcast on air is history: that publish was fixed.
    refusal:
      s.refusal && !(b && b.startedAt > s.refusal.at)
        ? { reason: t(s.refusal.key, s.refusal.vars ?? undefined), at: s.refusal.at.getTime() }
        : null,
  };
}

/** Copies the broadcast's latest frame into a cover of its own (frames are deleted as new ones come). */
async function coverFromFrame(userId: number): Promise<string> {
  const b = await currentBroadcast(userId);
  if (!b?.thumb) throw invalid('error.liveNoFrame');
  const store = mediaStore();
  const source = await store.open(b.thumb);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sy-cover-'));
  try {
    const key = `live/covers/${userId}-${Date.now().toString(36)}.webp`;
    const copy = path.join(dir, 'cover.webp');
    await import('node:fs/promises').then((fs) => fs.copyFile(source.file, copy));
    await store.put(copy, key);
    return key;
  } finally {
    await source.release();
    await rm(dir, { recursive: true, force: true });
  }
}

export const studioLiveRoutes = [
  route({
    method: 'GET',
    path: api(LIVE_API.studio),
    family: 'B',
    auth: true,
    summary:
      'My 直播 studio: settings, the RTMP server, whether a key exists, the broadcast on air (state, bitrate, resolution, viewers) and the last refusal',
    input: z.object({}),
    response: bodyB(studioB),
    handler: async ({ viewer, context }) => okB(await studio(viewer.id, context)),
  }),
  route({
    method: 'POST',
    path: api(LIVE_API.key),
    family: 'B',
    auth: true,
    summary: `A new stream key (the old one stops working); answered this once, stored hashed. ${LIVE_KEY_RATE.limit} per hour`,
    input: z.object({}),
    response: bodyB(z.object({ key: z.string(), server: z.string() })),
    handler: async ({ viewer, context }) => {
      await enforce(`live-key:${viewer.id}`, LIVE_KEY_RATE.limit, LIVE_KEY_RATE.windowMs);
      return okB({ key: await issueKey(viewer.id), server: rtmpServer(context) });
    },
  }),
  route({
    method: 'POST',
    path: api(LIVE_API.settings),
    family: 'B',
    auth: true,
    summary: `Save the next broadcast's title (at most ${LIVE_TITLE_MAX} characters), channelId and record (回放)`,
    input: z.object({
      title: z
        .string()
        .max(LIVE_TITLE_MAX * 4)
        .optional(),
      channelId: int(0, 999_999).optional(),
      record: bool().optional(),
    }),
    response: bodyB(studioB),
    handler: async ({ input, viewer, context }) => {
      await enforce(`live-settings:${viewer.id}`, LIVE_SETTINGS_RATE.limit, LIVE_SETTINGS_RATE.windowMs);
      await saveSettings(viewer.id, input);
      return okB(await studio(viewer.id, context));
    },
  }),
  route({
    method: 'POST',
    path: api(LIVE_API.cover),
    family: 'B',
    auth: true,
    summary: 'Set the cover: a checked cover upload (coverUploadId), or the broadcast’s current frame (fromFrame=1)',
    input: z.object({
      coverUploadId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
      fromFrame: flag().optional(),
    }),
    response: bodyB(studioB),
    handler: async ({ input, viewer, context }) => {
      await enforce(`live-settings:${viewer.id}`, LIVE_SETTINGS_RATE.limit, LIVE_SETTINGS_RATE.windowMs);
      let key: string;
      if (input.coverUploadId) key = await coverFromUpload(viewer.id, input.coverUploadId, `live/covers/${viewer.id}`);
      else if (input.fromFrame === 1) key = await coverFromFrame(viewer.id);
      else throw invalid('error.coverNotImage');
      await setCover(viewer.id, key);
      return okB(await studio(viewer.id, context));
    },
  }),
];
