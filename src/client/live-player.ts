/**
 * The live room's player (markup in LivePlayer.astro). HTTP-FLV through mpegts.js, imported here only, so it never
 * weighs on another page; HLS where the browser has no Media Source Extensions (Safari on iOS plays it natively).
 * The room's event stream (live-room.ts) says when the host leaves, comes back or ends: the player stops, waits and
 * reconnects by itself. A stream that stops moving while the room is on air is reconnected too.
 */
import type Mpegts from 'mpegts.js';
import { LIVE_EVENT, type LiveEventDetail } from './live-events.ts';

/** Wait before connecting again after a drop. */
const RETRY_MS = 2_000;
/** A stream whose time has not moved for this long is taken as stalled and reconnected. */
const STALL_MS = 6_000;

type State = 'live' | 'paused' | 'ended';
type View = 'connecting' | 'playing' | 'paused' | 'ended';

const hasMse = () => 'MediaSource' in globalThis || 'ManagedMediaSource' in globalThis;

/** Brings one server-rendered live player to life. */
export function startLivePlayer(root: HTMLElement): void {
  const video = root.querySelector<HTMLVideoElement>('[data-live-video]')!;
  const replay = root.querySelector<HTMLAnchorElement>('[data-live-replay]');
  let state = (root.dataset.state ?? 'live') as State;
  let player: Mpegts.Player | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let lastTime = -1;
  let lastMove = Date.now();

  const show = (view: View) => {
    root.dataset.view = view;
  };
  const sync = () => {
    root.dataset.playing = String(!video.paused);
    root.dataset.muted = String(video.muted);
  };

  const teardown = () => {
    clearTimeout(retry);
    if (player) {
      player.destroy();
      player = null;
    }
    if (video.getAttribute('src')) {
      video.removeAttribute('src');
      video.load();
    }
  };

  const again = (delay = RETRY_MS) => {
    teardown();
    if (state !== 'live') return;
    show('connecting');
    retry = setTimeout(() => void connect(), delay);
  };

  const play = () => void video.play().catch(() => sync());

  async function connect(): Promise<void> {
    teardown();
    if (state !== 'live') return;
    show('connecting');
    lastMove = Date.now();
    if (hasMse()) {
      const mpegts = (await import('mpegts.js')).default;
      if (state !== 'live') return;
      if (mpegts.getFeatureList().mseLivePlayback) {
        const p = mpegts.createPlayer(
          { type: 'flv', isLive: true, url: new URL(root.dataset.flv!, location.href).href },
          {
            enableWorker: false,
            enableStashBuffer: false,
            lazyLoad: false,
            autoCleanupSourceBuffer: true,
            liveBufferLatencyChasing: true,
            liveBufferLatencyMaxLatency: 1.5,
            liveBufferLatencyMinRemain: 0.3,
          },
        );
        player = p;
        p.on(mpegts.Events.ERROR, () => player === p && again());
        // The server ended the stream: the host left or ended; the room's events say which.
        p.on(mpegts.Events.LOADING_COMPLETE, () => player === p && again());
        p.attachMediaElement(video);
        p.load();
        play();
        return;
      }
    }
    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = root.dataset.hls!;
      play();
    }
  }

  video.addEventListener('playing', () => {
    if (state === 'live') show('playing');
    sync();
  });
  video.addEventListener('pause', sync);
  video.addEventListener('volumechange', sync);
  video.addEventListener('error', () => {
    if (!player && state === 'live') again();
  });
  video.addEventListener('timeupdate', () => {
    if (video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      lastMove = Date.now();
    }
  });
  const watchdog = setInterval(() => {
    if (state === 'live' && !video.paused && Date.now() - lastMove > STALL_MS) again(0);
  }, 1_000);

  root.querySelector('[data-live-toggle]')?.addEventListener('click', () => {
    if (video.paused) {
      // Back to the live edge rather than where it was paused.
      void connect();
    } else {
      video.pause();
      teardown();
    }
  });
  const unmute = () => {
    video.muted = !video.muted;
    if (!video.muted && video.paused) play();
  };
  root.querySelector('[data-live-mute]')?.addEventListener('click', unmute);
  root.querySelector('[data-live-unmute]')?.addEventListener('click', unmute);
  root.querySelector('[data-live-fullscreen]')?.addEventListener('click', () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.requestFullscreen?.().catch(() => {});
  });

  document.addEventListener(LIVE_EVENT, (e) => {
    const { type, data } = (e as CustomEvent<LiveEventDetail>).detail;
    if (type !== 'state') return;
    const next = data as { state: State; replayId?: number };
    const was = state;
    state = next.state;
    if (state === 'live' && was !== 'live') void connect();
    if (state === 'paused') {
      teardown();
      show('paused');
    }
    if (state === 'ended') {
      teardown();
      clearInterval(watchdog);
      show('ended');
      if (next.replayId && replay) {
        replay.href = `/video/${next.replayId}`;
        replay.classList.remove('hidden');
      }
    }
  });
  addEventListener('pagehide', teardown);

  sync();
  if (state === 'live') void connect();
  else show('paused');
}
