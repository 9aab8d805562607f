import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { t } from '../i18n/t.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { requireLogin } from '../stores/auth.ts';
import { $sentDanmaku, loadDanmaku, sendDanmaku, type Bullet } from '../stores/danmaku.ts';
import { dueBetween, holdLane, MAX_DANMAKU, planLane, type Lane } from './DanmakuPlan.ts';

const LINE_PX = 30;
/** Seconds a bullet takes to cross the player. */
const CROSS_S = 7;
/** How late a row may still be shown when the page could not draw a frame at its time (ms). */
const LATE_MS = 3000;
/** With reduced motion: how long a danmaku stands still in its lane, fading in and out (ms). */
const HOLD_MS = 4000;

interface LayerProps {
  video: HTMLVideoElement | null;
  item: VideoItem;
}

/**
 * 弹幕 over the video: each row flies across at its time in the video, in lanes of the top third only; when every
 * lane is busy a row is dropped rather than stacked, which is what keeps the density bounded.
 */
export function DanmakuLayer({ video, item }: LayerProps) {
  const box = useRef<HTMLDivElement>(null);
  // Null until the video's rows have come: the layer then says so (data-loaded), for whoever waits to watch them.
  const [list, setList] = useState<Bullet[] | null>(null);
  const sent = useStore($sentDanmaku);

  useEffect(() => {
    let live = true;
    void loadDanmaku(item.id).then((l) => live && setList(l));
    return () => {
      live = false;
    };
  }, [item.id]);

  // Lanes, and a clock that launches the rows whose time has come.
  const lanes = useRef<Lane[]>([]);
  const launch = useRef<(b: Bullet, own?: boolean) => void>(() => {});
  useEffect(() => {
    const el = box.current;
    if (!el || !video) return;
    const running = new Set<Animation>();
    launch.current = (b, own = false) => {
      const width = el.clientWidth;
      const count = Math.max(1, Math.floor(el.clientHeight / LINE_PX));
      if (lanes.current.length !== count) lanes.current = Array.from({ length: count }, () => ({ freeAt: 0 }));
      // Read at every launch, so a change of the system setting applies to the next danmaku.
      const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
      const node = document.createElement('span');
      node.textContent = b.text;
      node.className = `danmaku-item${still ? ' danmaku-still' : ''}${own ? ' danmaku-own' : ''}`;
      el.append(node);
      const speed = width / (CROSS_S * 1000);
      const lane = still
        ? holdLane(lanes.current, performance.now(), HOLD_MS, own)
        : planLane(lanes.current, performance.now(), node.offsetWidth, speed, own);
      if (lane < 0) return node.remove();
      node.style.top = `${lane * LINE_PX}px`;
      // Web Animations are not CSS animations: the reduced-motion rule of theme.css does not reach them, so a viewer who
      // asked for less motion gets danmaku that stand still and fade instead of flying across.
      const anim = still
        ? node.animate([{ opacity: 0 }, { opacity: 1, offset: 0.08 }, { opacity: 1, offset: 0.92 }, { opacity: 0 }], {
            duration: HOLD_MS,
          })
        : node.animate([{ transform: `translateX(${width}px)` }, { transform: `translateX(${-node.offsetWidth}px)` }], {
            duration: (width + node.offsetWidth) / speed,
            easing: 'linear',
          });
      if (video.paused) anim.pause();
      running.add(anim);
      anim.onfinish = anim.oncancel = () => {
        running.delete(anim);
        node.remove();
      };
    };
    let last = video.currentTime * 1000;
    let frame = 0;
    const tick = () => {
      const now = video.currentTime * 1000;
      // A seek (a loop is one) starts from the new place without replaying what was skipped. Rows that came due while
      // the page was too busy to draw a frame show late, up to LATE_MS; older ones are left.
      if (list && !video.seeking && now > last)
        for (const b of dueBetween(list, Math.max(last, now - LATE_MS), now)) launch.current(b);
      last = now;
      frame = requestAnimationFrame(tick);
    };
    const pause = () => running.forEach((a) => a.pause());
    const play = () => running.forEach((a) => a.play());
    const seeked = () => {
      running.forEach((a) => a.cancel());
      lanes.current = [];
      last = video.currentTime * 1000;
    };
    frame = requestAnimationFrame(tick);
    video.addEventListener('pause', pause);
    video.addEventListener('play', play);
    video.addEventListener('seeked', seeked);
    return () => {
      cancelAnimationFrame(frame);
      video.removeEventListener('pause', pause);
      video.removeEventListener('play', play);
      video.removeEventListener('seeked', seeked);
      running.forEach((a) => a.cancel());
    };
  }, [video, list]);

  useEffect(() => {
    if (sent?.videoId === item.id) launch.current(sent.bullet, true);
  }, [sent, item.id]);

  return (
    <div
      ref={box}
      className="danmaku-layer pointer-events-none absolute inset-x-0 top-2 z-10 h-1/3 overflow-hidden"
      data-loaded={list ? '' : undefined}
      aria-hidden="true"
    />
  );
}

interface InputProps {
  video: HTMLVideoElement | null;
  item: VideoItem;
}

/** The line to send a danmaku at the current time (logged in; anonymous viewers get the login dialog). */
export function DanmakuInput({ video, item }: InputProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body || busy) return;
    setBusy(true);
    if (await sendDanmaku(item, body, (video?.currentTime ?? 0) * 1000)) setText('');
    setBusy(false);
  };
  return (
    <form
      onSubmit={submit}
      className="flex h-8 min-w-0 max-w-72 flex-1 items-center overflow-hidden rounded-full bg-white/15 focus-within:bg-white/25"
    >
      <label className="sr-only" htmlFor={`danmaku-${item.id}`}>
        {t('danmaku.label')}
      </label>
      <input
        id={`danmaku-${item.id}`}
        value={text}
        maxLength={MAX_DANMAKU}
        onChange={(e) => setText(e.currentTarget.value)}
        onFocus={() => requireLogin()}
        placeholder={t('danmaku.placeholder')}
        className="h-full min-w-0 flex-1 bg-transparent px-3 text-xs text-white outline-none placeholder:text-white/60"
      />
      <button
        type="submit"
        disabled={busy || !text.trim()}
        className="focus-ring h-full shrink-0 bg-accent-fill px-3 text-xs text-white disabled:opacity-60"
      >
        {t('danmaku.send')}
      </button>
    </form>
  );
}
