/**
 * A live room's chat, real time across viewers, on the markup of LiveRoomChat.astro: an EventSource on
 * the room's stream (it resumes from the last line it saw after a drop, sending Last-Event-ID), the viewer count, and
 * a box that says something through the API. Text only ever goes in through textContent.
 */
import { CHAT_MAX, type ChatLine } from '../shared/chat-line.ts';
import { formatCountWith } from '../shared/format-count.ts';
import { LIVE_EVENT } from './live-events.ts';
import { openLogin } from '../stores/auth.ts';

/** Lines kept on screen; older ones scroll away for good. */
const KEEP = 200;
const length = (s: string) => [...s].length;
const fill = (template: string, count: number | string) => template.replace('{count}', String(count));

// Loaded when first needed, so the room's first load stays this small module; a viewer reaching for the box (or a
// logged-in viewer's idle browser) starts the API client loading before the first line is sent.
const loadApi = () => import('../stores/api.ts');

/** Brings one server-rendered chat panel to life. */
export function startLiveRoom(root: HTMLElement): void {
  const roomId = root.dataset.liveRoom!;
  const log = root.querySelector<HTMLOListElement>('[data-chat-log]')!;
  const lineTemplate = root.querySelector<HTMLTemplateElement>('template[data-chat-line]')!;
  const empty = root.querySelector<HTMLElement>('[data-chat-empty]');
  const viewers = root.querySelector<HTMLElement>('[data-live-viewers]');
  const dropped = root.querySelector<HTMLElement>('[data-chat-dropped]');
  const units = JSON.parse(root.dataset.units ?? '["万","亿"]') as [string, string];
  let stick = true;

  log.scrollTop = log.scrollHeight;
  log.addEventListener('scroll', () => {
    stick = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  });

  const add = (line: ChatLine) => {
    if (log.querySelector(`[data-chat-id="${CSS.escape(line.id)}"]`)) return;
    const li = (lineTemplate.content.firstElementChild as HTMLLIElement).cloneNode(true) as HTMLLIElement;
    li.dataset.chatId = line.id;
    const who = li.querySelector('a')!;
    who.href = `/user/${encodeURIComponent(line.user.secUid)}`;
    who.textContent = `${line.user.nickname}：`;
    li.querySelector('span')!.textContent = line.text;
    log.append(li);
    empty?.classList.add('hidden');
    const lines = log.querySelectorAll('[data-chat-id]');
    for (let i = 0; i < lines.length - KEEP; i++) lines[i]!.remove();
    if (stick) log.scrollTop = log.scrollHeight;
  };

  if (root.dataset.live === 'true' && typeof EventSource !== 'undefined') {
    const source = new EventSource(`/api/live/room/events?room_id=${encodeURIComponent(roomId)}`);
    source.addEventListener('chat', (e) => add(JSON.parse((e as MessageEvent<string>).data) as ChatLine));
    // The count comes once the server listens for the room, so it also says the stream is live.
    source.addEventListener('viewers', (e) => {
      const { count } = JSON.parse((e as MessageEvent<string>).data) as { count: number };
      if (viewers) viewers.textContent = fill(root.dataset.viewersTemplate ?? '{count}', formatCountWith(count, units));
      root.dataset.stream = 'open';
    });
    // The player and the hearts follow the room's state and 点赞 from the same stream.
    for (const type of ['state', 'like']) {
      source.addEventListener(type, (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as unknown;
        document.dispatchEvent(new CustomEvent(LIVE_EVENT, { detail: { type, data } }));
      });
    }
    source.addEventListener('open', () => dropped?.classList.add('hidden'));
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.OPEN) return;
      root.dataset.stream = 'closed';
      dropped?.classList.remove('hidden');
    });
    addEventListener('pagehide', () => source.close());
  }

  root.querySelector('[data-chat-login]')?.addEventListener('click', () => openLogin());

  const form = root.querySelector<HTMLFormElement>('[data-chat-form]');
  if (!form) return;
  const input = form.querySelector('input')!;
  const send = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const counter = form.querySelector<HTMLElement>('[data-chat-counter]')!;
  let sending = false;

  const update = () => {
    const n = length(input.value);
    const over = n > CHAT_MAX;
    counter.textContent = fill(root.dataset.counterTemplate ?? '{count}', n);
    counter.classList.toggle('text-accent-text', over);
    counter.classList.toggle('text-muted', !over);
    if (over) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    send.disabled = sending || over || input.value.trim() === '';
  };
  input.addEventListener('input', update);
  update();

  for (const type of ['pointerenter', 'focusin']) form.addEventListener(type, () => void loadApi(), { once: true });
  const idle = globalThis.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
  idle(() => void loadApi());

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (send.disabled) return;
    sending = true;
    update();
    try {
      const { apiPost } = await loadApi();
      const body = await apiPost<{ data: ChatLine }>('/live/room/chat', { room_id: roomId, text: input.value });
      stick = true;
      add(body.data);
      input.value = '';
    } catch {
      // The API client showed why (rate limit, ended room); the draft stays.
    } finally {
      sending = false;
      update();
    }
  });
}
