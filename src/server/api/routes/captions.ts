/** A work's captions in the studio (Family B): read, upload a .vtt or .srt file, edit one cue's text, remove. */
import { z } from 'zod';
import {
  CAPTION_API,
  CAPTION_MAX_BYTES,
  CAPTION_MAX_CUES,
  CUE_TEXT_MAX,
  type CaptionTrack,
} from '../../../shared/captions.ts';
import { CAPTION_WRITE_RATE, editCue, getTrack, removeCaptions, uploadCaptions } from '../../services/captions.ts';
import { invalid } from '../../errors.ts';
import { okB } from '../envelope.ts';
import { id, int } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';

const n = () => z.number().int();
const api = (path: string) => path.replace(/^\/api/, '');

const trackB = z.object({
  workId: n(),
  source: z.enum(['upload', 'auto']),
  lang: z.string(),
  cues: z.array(z.object({ start: n(), end: n(), text: z.string() })),
  url: z.string(),
  updateTime: n(),
}) satisfies z.ZodType<CaptionTrack>;

const rate = `${CAPTION_WRITE_RATE.limit} caption changes per hour`;

export const captionRoutes = [
  route({
    method: 'GET',
    path: api(CAPTION_API.get),
    family: 'B',
    auth: true,
    summary: "One of my works' captions (cues in time order, the WebVTT file's URL), or null when it has none",
    input: z.object({ workId: id() }),
    response: bodyB(trackB.nullable()),
    handler: async ({ input, viewer }) => okB(await getTrack(viewer.id, input.workId)),
  }),
  route({
    method: 'POST',
    path: api(CAPTION_API.upload),
    family: 'B',
    auth: true,
    summary:
      `Add or replace my work's captions with a WebVTT (.vtt) or SubRip (.srt) file (multipart field file, ≤ ` +
      `${CAPTION_MAX_BYTES / 1024} KB, ≤ ${CAPTION_MAX_CUES} cues, ≤ ${CUE_TEXT_MAX} characters a cue), checked by ` +
      'content: UTF-8, UTF-16 or GB18030 text, times inside the video, no scripts; markup is stripped. A refusal names ' +
      `the line; nothing is stored. ${rate}.`,
    input: z.object({
      workId: id(),
      file: z
        .instanceof(File)
        .meta({ type: 'string', format: 'binary', description: 'The .vtt or .srt file' })
        .optional(),
    }),
    files: { file: CAPTION_MAX_BYTES },
    response: bodyB(trackB),
    handler: async ({ input, viewer }) => {
      if (!input.file) throw invalid('error.captionFileMissing');
      const bytes = new Uint8Array(await input.file.arrayBuffer());
      return okB(await uploadCaptions(viewer.id, input.workId, bytes, input.file.name));
    },
  }),
  route({
    method: 'POST',
    path: api(CAPTION_API.editCue),
    family: 'B',
    auth: true,
    summary: `Change the text of one cue of my work's captions (index: 0-based, in time order; text ≤ ${CUE_TEXT_MAX} characters). ${rate}.`,
    input: z.object({ workId: id(), index: int(0, CAPTION_MAX_CUES - 1), text: z.string().max(CUE_TEXT_MAX * 8) }),
    response: bodyB(trackB),
    handler: async ({ input, viewer }) => okB(await editCue(viewer.id, input.workId, input.index, input.text)),
  }),
  route({
    method: 'POST',
    path: api(CAPTION_API.remove),
    family: 'B',
    auth: true,
    summary: `Remove my work's captions. ${rate}.`,
    input: z.object({ workId: id() }),
    response: bodyB(z.object({ workId: n() })),
    handler: async ({ input, viewer }) => {
      await removeCaptions(viewer.id, input.workId);
      return okB({ workId: input.workId });
    },
  }),
];
