/**
 * 点赞 in a live room: every tap floats a heart at once and is counted; taps are sent in small batches (a few a second
 * at most), and the room's event stream brings everyone's count and the other viewers' hearts.
 */
import { LIKE_BATCH_MAX, LIVE_API } from '../shared/live.ts';
import { openLogin } from '../stores/auth.ts';
import { formatCountWith } from '../shared/format-count.ts';
import { LIVE_EVENT, type LiveEventDetail } from './live-events.ts';

/** Taps are gathered this long before they are sent. */
const BATCH_MS = 400;
/** Hearts floating at once, at most. */
const HEARTS_MAX = 24;

/** This tab's name in the hearts it sends, so it does not float its own twice when they come back. */
const TAB = Math.random().toString(36).slice(2, 10);

/** Brings the room's 点赞 button and count to life. */
export function startLiveLikes(root: HTMLElement): void {
  const roomId = root.dataset.liveLikes!;
  const button = root.querySelector<HTMLButtonElement>('[data-like-button]')!;
  const label = root.querySelector<HTMLElement>('[data-like-count]')!;
  const units = JSON.parse(root.dataset.units ?? '["万","亿"]') as [string, string];
  const template = root.dataset.template ?? '{count}';
  const hearts = document.querySelector<HTMLElement>('[data-live-hearts]');
  const heart = document.querySelector<HTMLTemplateElement>('template[data-heart]');
  let count = Number(root.dataset.count ?? 0);
  let pending = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const show = () => {
    label.textContent = template.replace('{count}', formatCountWith(count, units));
  };
  const float = (n: number) => {
    if (!hearts || !heart) return;
    for (let i = 0; i < Math.min(n, 5) && hearts.childElementCount < HEARTS_MAX; i++) {
      const el = heart.content.firstElementChild!.cloneNode(true) as SVGElement;
      el.style.setProperty('--drift', `${Math.round((Math.random() - 0.5) * 60)}px`);
      el.style.animationDelay = `${i * 120}ms`;
      el.addEventListener('animationend', () => el.remove());
      hearts.append(el);
    }
  };

  const flush = async () => {
    timer = undefined;
    const n = Math.min(pending, LIKE_BATCH_MAX);
    pending -= n;
    if (n === 0) return;
    try {
      const { apiPost } = await import('../stores/api.ts');
      const body = await apiPost<{ data: { count: number } }>(LIVE_API.like.replace(/^\/api/, ''), {
        room_id: roomId,
        count: n,
        tab: TAB,
      });
      count = Math.max(count, body.data.count);
      show();
    } catch {
      // The API client said why (login, rate limit, ended); the count falls back to what the room says.
      count -= n;
      show();
    }
    if (pending > 0) timer = setTimeout(() => void flush(), BATCH_MS);
  };

  button.addEventListener('click', () => {
    // The room's page is the same for every viewer: a member is known by the mark set before first paint.
    if (!document.documentElement.hasAttribute('data-member')) {
      openLogin();
      return;
    }
    count++;
    pending++;
    show();
    float(1);
    timer ??= setTimeout(() => void flush(), BATCH_MS);
  });

  document.addEventListener(LIVE_EVENT, (e) => {
    const { type, data } = (e as CustomEvent<LiveEventDetail>).detail;
    if (type === 'like') {
      const like = data as { count: number; n: number; tab?: string };
      if (like.tab !== TAB) float(like.n);
      // Taps of this tab still unsent are on top of the room's count.
      count = Math.max(count, like.count + pending);
      show();
    }
    if (type === 'state' && (data as { state: string }).state === 'ended') button.disabled = true;
  });
}
