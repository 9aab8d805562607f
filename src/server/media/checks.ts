/**
 * Checks an upload by its content, not its name: the container by magic bytes (file-type), then ffprobe (a video
 * stream, a duration between the limits). A refusal is a ServiceError whose catalogue key the creator sees.
 */
import { fileTypeFromFile } from 'file-type';
import { invalid, ServiceError } from '../errors.ts';
import { displaySize } from './ladder.ts';
import { runTool, ToolError } from './run.ts';

/** Shortest and longest accepted video, in seconds. */
export const MIN_DURATION_SEC = 1;
export const MAX_DURATION_SEC = 15 * 60;
/** Largest cover image side, in pixels. */
const COVER_MAX_SIDE = 8192;

/** Containers accepted, as file-type names them. */
const VIDEO_CONTAINERS = new Set(['mp4', 'mov', 'webm', 'mkv', 'm4v']);
const COVER_FORMATS = new Set(['jpg', 'png', 'webp']);

export interface Probe {
  formatName: string;
  durationMs: number;
  /** As displayed (rotation applied). */
  width: number;
  height: number;
  hasAudio: boolean;
  videoCodec: string;
}

interface FfprobeOut {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
}

/** ffprobe's view of a media file; throws `error.uploadBroken` when ffprobe cannot read it. */
export async function probe(file: string): Promise<Probe | null> {
  let out: FfprobeOut;
  try {
    const text = await runTool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: 30_000 });
    out = JSON.parse(text) as FfprobeOut;
  } catch (error) {
    if (error instanceof ToolError || error instanceof SyntaxError) throw invalid('error.uploadBroken');
    throw error;
  }
  const video = out.streams?.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  if (!video) return null;
  const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  const seconds = Number(out.format?.duration ?? video.duration ?? NaN);
  return {
    formatName: out.format?.format_name ?? '',
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0,
    ...displaySize(video.width!, video.height!, rotation),
    hasAudio: out.streams?.some((s) => s.codec_type === 'audio') ?? false,
    videoCodec: video.codec_name ?? '',
  };
}

/**
 * Accepts an MP4, MOV, WebM or MKV file with a video stream lasting 1 s to 15 min (`maxSec` for a live recording);
 * returns what ffprobe saw.
 */
export async function checkVideo(file: string, maxSec = MAX_DURATION_SEC): Promise<Probe> {
  const type = await fileTypeFromFile(file).catch(() => undefined);
  if (!type || !VIDEO_CONTAINERS.has(type.ext)) {
    // An audio file (m4a, mp3, ...) is a video without a picture, which says more than "wrong format".
    throw invalid(type?.mime.startsWith('audio/') ? 'error.uploadNoVideo' : 'error.uploadNotVideo');
  }
  const info = await probe(file);
  if (!info) throw invalid('error.uploadNoVideo');
  if (info.durationMs < MIN_DURATION_SEC * 1000) throw invalid('error.uploadTooShort', { min: MIN_DURATION_SEC });
  if (info.durationMs > maxSec * 1000) throw invalid('error.uploadTooLong', { max: Math.round(maxSec / 60) });
  return info;
}

/** Accepts a JPEG, PNG or WebP image that decodes, at most 8192 px a side. */
export async function checkCover(file: string): Promise<Probe> {
  const type = await fileTypeFromFile(file).catch(() => undefined);
  if (!type || !COVER_FORMATS.has(type.ext)) throw invalid('error.coverNotImage');
  const info = await probe(file).catch((error: unknown) => {
    if (error instanceof ServiceError) throw invalid('error.coverNotImage');
    throw error;
  });
  if (!info || info.width > COVER_MAX_SIDE || info.height > COVER_MAX_SIDE) throw invalid('error.coverNotImage');
  return info;
}
