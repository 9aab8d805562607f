/** The sample-media manifest (media/manifest.json): the clips, avatars and profile banners seeded rows point at. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { config } from '../../config.ts';

const clipSchema = z.object({
  video: z.string().min(1),
  poster: z.string().min(1),
  durationMs: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  channel: z.coerce.number().int(),
  caption: z.string(),
});
const manifestSchema = z.object({
  clips: z.array(clipSchema).min(1),
  avatars: z.array(z.object({ image: z.string().min(1) })).min(1),
  /** Profile banners (users' cover_url) for the seeded users. */
  profileBanners: z.array(z.object({ image: z.string().min(1) })).min(1),
});

export type MediaClip = z.infer<typeof clipSchema>;
export type MediaManifest = z.infer<typeof manifestSchema>;

/** MEDIA_MANIFEST, else media/manifest.json of this repo (beside src), else under the cwd. */
export function manifestPath(): string {
  const configured = config().MEDIA_MANIFEST;
  if (configured) return configured;
  const besideSource = fileURLToPath(new URL('../../../../media/manifest.json', import.meta.url));
  return existsSync(besideSource) ? besideSource : path.resolve('media/manifest.json');
}

/** Reads and validates the sample-media manifest written by media/make-media.sh. */
export function loadManifest(file = manifestPath()): MediaManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}
