/**
 * The studio's 直播 page (markup in pages/post/live.astro): follows the broadcast every two seconds (state, incoming
 * bitrate and resolution, viewers, the last refusal), makes a new stream key and shows it this once, saves the
 * settings, and sets the cover from the stream's frame or an uploaded picture (through the studio's tus uploads).
 */
import { LIVE_API, type LiveStudio } from '../shared/live.ts';

/** How often the page asks for the broadcast's state. */
const POLL_MS = 2_000;

interface Texts {
  offline: string;
  onAir: string;
  away: string;
  waiting: string;
  figures: string;
  viewers: string;
  refusedAt: string;
  saved: string;
  copied: string;
  renewConfirm: string;
  keyRenew: string;
  keyShown: string;
  noAudio: string;
}

const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
const api = (path: string) => path.replace(/^\/api/, '');

/** Brings the server-rendered page to life. */
export function startStudioLive(root: HTMLElement): void {
  const texts = JSON.parse(root.dataset.texts ?? '{}') as Texts;
  const $ = <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector)!;
  const loadApi = () => import('../stores/api.ts');

  const render = (s: LiveStudio) => {
    const b = s.broadcast;
    $('[data-live-badge]').textContent = b ? texts.onAir : texts.offline;
    $('[data-live-badge]').classList.toggle('bg-accent-fill', !!b);
    $('[data-live-badge]').classList.toggle('bg-black/60', !b);
    const state = !b
      ? texts.offline
      : b.state === 'paused'
        ? texts.away
        : b.ingest
          ? fill(texts.figures, {
              width: b.ingest.width,
              height: b.ingest.height,
              fps: b.ingest.fps,
              kbps: b.ingest.kbps,
              video: b.ingest.videoCodec,
              audio: b.ingest.audioCodec || texts.noAudio,
            })
          : texts.waiting;
    const stateEl = $('[data-live-state]');
    if (stateEl.textContent !== state) stateEl.textContent = state;
    root.dataset.broadcast = b ? b.state : 'none';
    const frame = $<HTMLImageElement>('[data-live-frame]');
    if (b?.frame && frame.getAttribute('src') !== b.frame) frame.src = b.frame;
    frame.classList.toggle('hidden', !b?.frame);
    const open = $<HTMLAnchorElement>('[data-live-open]');
    open.classList.toggle('hidden', !b);
    if (b) open.href = `/live/${b.roomId}`;
    $('[data-live-audience-label]').classList.toggle('hidden', !b);
    const audience = $('[data-live-audience]');
    audience.classList.toggle('hidden', !b);
    if (b) audience.textContent = fill(texts.viewers, { count: b.viewers, likes: b.likes });
    $<HTMLButtonElement>('[data-live-cover-frame]').disabled = !b?.frame;
    const refusal = $('[data-live-refusal]');
    refusal.classList.toggle('hidden', !s.refusal);
    if (s.refusal) {
      const time = new Date(s.refusal.at).toLocaleTimeString('zh-CN', { timeZone: 'Asia/Shanghai' });
      refusal.textContent = fill(texts.refusedAt, { time, reason: s.refusal.reason });
    }
    const cover = $<HTMLImageElement>('[data-live-cover]');
    if (s.cover && cover.getAttribute('src') !== s.cover) cover.src = s.cover;
    cover.classList.toggle('hidden', !s.cover);
    cover.nextElementSibling?.classList.toggle('hidden', !!s.cover);
  };

  const poll = async () => {
    if (document.visibilityState === 'visible') {
      const res = await fetch(LIVE_API.studio, { headers: { Accept: 'application/json' } }).catch(() => null);
      if (res?.ok) render(((await res.json()) as { data: LiveStudio }).data);
    }
    setTimeout(() => void poll(), POLL_MS);
  };
  setTimeout(() => void poll(), POLL_MS);

  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-copy]')) {
    button.addEventListener('click', () => {
      const input = $<HTMLInputElement>(button.dataset.copy === 'key' ? '[data-live-key]' : '[data-live-server]');
      input.select();
      void navigator.clipboard?.writeText(input.value).then(() => {
        const was = button.textContent;
        button.textContent = texts.copied;
        setTimeout(() => (button.textContent = was), 1500);
      });
    });
  }

  const keyButton = $<HTMLButtonElement>('[data-live-key-new]');
  keyButton.addEventListener('click', async () => {
    if (keyButton.dataset.hasKey === 'true' && !confirm(texts.renewConfirm)) return;
    keyButton.disabled = true;
    try {
      const { apiPost } = await loadApi();
      const body = await apiPost<{ data: { key: string; server: string } }>(api(LIVE_API.key));
      const input = $<HTMLInputElement>('[data-live-key]');
      input.value = body.data.key;
      input.classList.remove('hidden');
      root.querySelector('[data-copy="key"]')!.classList.remove('hidden');
      $('[data-live-key-note]').textContent = texts.keyShown;
      $<HTMLInputElement>('[data-live-server]').value = body.data.server;
      keyButton.dataset.hasKey = 'true';
      keyButton.lastChild!.textContent = texts.keyRenew;
      input.focus();
      input.select();
    } catch {
      // The API client said why.
    } finally {
      keyButton.disabled = false;
    }
  });

  const form = $<HTMLFormElement>('[data-live-settings]');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const saved = $('[data-live-saved]');
    saved.textContent = '';
    try {
      const { apiPost } = await loadApi();
      const body = await apiPost<{ data: LiveStudio }>(api(LIVE_API.settings), {
        title: String(data.get('title') ?? ''),
        channelId: String(data.get('channelId') ?? ''),
        record: data.get('record') ? '1' : '0',
      });
      render(body.data);
      saved.textContent = texts.saved;
    } catch {
      // The API client said why.
    }
  });

  const setCover = async (params: Record<string, string>) => {
    const { apiPost } = await loadApi();
    const body = await apiPost<{ data: LiveStudio }>(api(LIVE_API.cover), params);
    render(body.data);
    $('[data-live-cover-status]').textContent = texts.saved;
  };
  $('[data-live-cover-frame]').addEventListener('click', () => void setCover({ fromFrame: '1' }).catch(() => {}));
  const file = $<HTMLInputElement>('[data-live-cover-file]');
  file.addEventListener('change', async () => {
    const picked = file.files?.[0];
    if (!picked) return;
    const status = $('[data-live-cover-status]');
    const uploads = await import('../stores/studio-uploads.ts');
    const key = uploads.startUpload(picked, 'cover');
    const stop = uploads.$uploads.subscribe((all) => {
      const entry = all[key];
      if (!entry) return;
      status.textContent = entry.error ?? `${Math.round((entry.sent / Math.max(entry.size, 1)) * 100)}%`;
      if (entry.phase === 'ready' && entry.uploadId) {
        stop();
        void setCover({ coverUploadId: entry.uploadId }).catch(() => {});
      }
      if (entry.phase === 'rejected' || entry.phase === 'failed') stop();
    });
    file.value = '';
  });
}
