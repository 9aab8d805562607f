/** The studio's limits as the server publishes them (GET /api/studio/config): read once per page. */
import { atom } from 'nanostores';
import { STUDIO_API, type StudioConfig } from '../shared/studio.ts';
import { studioGet } from './studio-api.ts';

/** The limits, or null until they arrive. */
export const $studioConfig = atom<StudioConfig | null>(null);
/** True when the last attempt to read them failed (the page offers to try again). */
export const $studioConfigFailed = atom(false);

let pending: Promise<StudioConfig | null> | null = null;

/** Reads the limits (once; again after a failure). */
export function loadStudioConfig(): Promise<StudioConfig | null> {
  const known = $studioConfig.get();
  if (known) return Promise.resolve(known);
  pending ??= studioGet<StudioConfig>(STUDIO_API.config)
    .then((config) => {
      $studioConfig.set(config);
      $studioConfigFailed.set(false);
      return config;
    })
    .catch(() => {
      $studioConfigFailed.set(true);
      return null;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}
