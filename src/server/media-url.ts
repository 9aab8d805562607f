/** The one place media URLs are made, so a CDN or object store (MEDIA_BASE_URL) can replace local files. */
import { config } from './config.ts';

/** MEDIA_BASE_URL without its trailing slash, or '' for this server's own /media/. */
const mediaBase = () => config().MEDIA_BASE_URL;

// A path whose segments encodeURIComponent leaves as they are: the usual one, which skips the split and the encoding
// (an aweme makes several URLs; a list of them spent a quarter of its shaping here).
const PLAIN_PATH = /^[\w.~-]+(?:\/[\w.~-]+)*$/;

/** The public URL of a media file, e.g. `mediaUrl('clips/c01.mp4')` → `/media/clips/c01.mp4`. */
export function mediaUrl(relPath: string): string {
  if (PLAIN_PATH.test(relPath)) return `${mediaBase()}/media/${relPath}`;
  const encoded = relPath
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${mediaBase()}/media/${encoded}`;
}
