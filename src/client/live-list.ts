/**
 * /live while it is open: every few seconds the rooms on air bring their viewer counts and newest frame (the server
 * takes one from each stream every few seconds), and a room that came on air or went off shows on the next visit.
 */
import { LIVE_API, type LiveNow } from '../shared/live.ts';
import { formatCountWith } from '../shared/format-count.ts';

/** How often the list asks. */
const REFRESH_MS = 5_000;

/** Keeps one server-rendered list fresh while the page is visible. */
export function refreshLiveList(root: HTMLElement): void {
  const units = JSON.parse(root.dataset.units ?? '["万","亿"]') as [string, string];
  const template = root.dataset.viewersTemplate ?? '{count}';
  if (!root.querySelector('[data-live-card]')) return;
  const tick = async () => {
    if (document.visibilityState !== 'visible') return;
    const res = await fetch(LIVE_API.now, { headers: { Accept: 'application/json' } }).catch(() => null);
    if (!res?.ok) return;
    const body = (await res.json()) as { data?: LiveNow[] };
    for (const room of body.data ?? []) {
      const card = root.querySelector<HTMLElement>(`[data-live-card="${room.id}"]`);
      if (!card) continue;
      const viewers = card.querySelector('[data-live-viewers]');
      if (viewers) viewers.textContent = template.replace('{count}', formatCountWith(room.viewers, units));
      const img = card.querySelector<HTMLImageElement>('[data-live-picture]');
      if (img && img.getAttribute('src') !== room.picture) {
        // Swapped once loaded, so the card never flashes empty.
        const next = new Image();
        next.onload = () => {
          img.src = room.picture;
        };
        next.src = room.picture;
      }
    }
  };
  setInterval(() => void tick(), REFRESH_MS);
}
