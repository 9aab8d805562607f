/** Watch progress (观看历史) as a video plays: written now and then, and on leaving it or the page. */
import { hasSession, savedToken } from './auth.ts';

/** How often progress of one video is written while it plays. */
export const HISTORY_EVERY_MS = 10_000;
const lastWrite = new Map<string, number>();
const lastProgress = new Map<string, number>();

// The API client loads with the first write, not with the player.
const tokenHeader = (token: string | null): Record<string, string> => (token ? { Token: token } : {});

let apiModule: Promise<typeof import('./api.ts')> | undefined;
const api = () => (apiModule ??= import('./api.ts'));

/**
 * Records watch progress (观看历史) for a logged-in viewer: at most every HISTORY_EVERY_MS while playing, and always
 * on pause, on leaving a video (`final`) and on leaving the page (`unload`: a keepalive request that outlives it).
 */
export function reportProgress(
  id: string,
  seconds: number,
  when: 'tick' | 'final' | 'unload' = 'tick',
  now = Date.now(),
): boolean {
  if (!hasSession() || !Number.isFinite(seconds)) return false;
  if (when === 'tick' && now - (lastWrite.get(id) ?? 0) < HISTORY_EVERY_MS) return false;
  const form = { aweme_id: id, progress: Math.max(0, Math.round(seconds * 1000)) };
  // Leaving a video reports it twice (its pause, then the switch): the same place is written once.
  if (when !== 'tick' && lastProgress.get(id) === form.progress) return false;
  lastWrite.set(id, now);
  lastProgress.set(id, form.progress);
  if (when === 'unload') {
    // The API client's requests die with the page; a keepalive fetch may carry the Token header, unlike sendBeacon.
    void fetch('/api/aweme/v1/web/history/write/', {
      method: 'POST',
      keepalive: true,
      // Without a saved token, the session cookie (and the request's Origin) speaks for the viewer.
      headers: { ...tokenHeader(savedToken()), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ aweme_id: form.aweme_id, progress: String(form.progress) }),
    }).catch(() => {});
  } else {
    void api()
      .then((m) => m.apiPost('/aweme/v1/web/history/write/', form, { quiet: true }))
      .catch(() => {});
  }
  return true;
}
