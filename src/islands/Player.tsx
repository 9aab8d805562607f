import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { bindShortcuts } from '../client/shortcuts.ts';
import { riCloseLine, riHeart3Fill } from '../shared/icons.ts';
import { readPageData, type PageData } from '../shared/page-data.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { $clear, $host, $prefs, $shortcutsOpen, $webFull, restorePrefs } from '../stores/player.ts';
import { toggleLike } from '../stores/video-actions.ts';
import { CaptionLayer } from './CaptionLayer.tsx';
import { Icon } from './Icon.tsx';
import { PlayerControls } from './PlayerControls.tsx';
import type { PlayerText } from './PlayerText.ts';

const ShortcutsDialog = lazy(() => import('./ShortcutsDialog.tsx').then((m) => ({ default: m.ShortcutsDialog })));
const DanmakuLayer = lazy(() => import('./DanmakuLayer.tsx').then((m) => ({ default: m.DanmakuLayer })));
const DanmakuInput = lazy(() => import('./DanmakuLayer.tsx').then((m) => ({ default: m.DanmakuInput })));

const DOUBLE_CLICK_MS = 260;
/** Wakes the islands rendered with client:interact="player" (src/client/directives/interact.ts). */
const WAKE_EVENT = 'sy:hydrate-player';
/** Where the mini player floats: a phone's screen has no room beside the comments for it (it covered them). */
const MINI_PLAYER_MEDIA = '(min-width: 768px)';
/** The related videos beside the player. */
const RELATED = '#related, main aside';

/** Brings a section of the page into view and focuses its first field (X: comments) or itself (N: related). */
function reveal(selector: string, field = false): void {
  const section = document.querySelector<HTMLElement>(selector);
  if (!section) return;
  section.scrollIntoView({
    behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
    block: 'start',
  });
  const target = field ? section.querySelector<HTMLElement>('textarea, input, [contenteditable="true"]') : null;
  if (target) target.focus({ preventScroll: true });
  else {
    section.tabIndex = -1;
    section.focus({ preventScroll: true });
  }
}

/** What a page's player, or its line of actions, is rendered from. */
export interface PlayerData {
  item: VideoItem;
  text: PlayerText;
}

interface Props {
  /** The video and the texts, from the page's JSON block rather than props (src/shared/page-data.ts says why). */
  data: PageData<PlayerData>;
  /** Loop instead of ending (a page that plays the next video at the end, like a theatre series, leaves it off). */
  loop?: boolean;
  /** A 合集 episode: the 连播 switch decides between looping and moving on (the page moves on at the end). */
  series?: boolean;
  /** A live room's stream: playback only (no likes, 弹幕 or watch history for it). */
  live?: boolean;
}

/**
 * The video page's player: controls, 弹幕, shortcuts, and a mini player in the corner that keeps playing while the
 * video is scrolled out of view (the same element moves, so playback never restarts).
 */
export function Player({ data, loop = false, series = false, live = false }: Props) {
  const [{ item, text }] = useState(() => readPageData(data));
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [mini, setMini] = useState(false);
  const [bursts, setBursts] = useState<{ key: number; x: number; y: number }[]>([]);
  const slot = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const closed = useRef(false);
  const prefs = useStore($prefs);
  const webFull = useStore($webFull);
  // J (清屏): only the video and its progress stay.
  const clear = useStore($clear);
  const dialog = useStore($shortcutsOpen);

  const burst = (x?: number, y?: number) => {
    const box = frame.current?.getBoundingClientRect();
    const b = { key: performance.now(), x: x ?? (box?.width ?? 0) / 2, y: y ?? (box?.height ?? 0) / 2 };
    setBursts((all) => [...all.slice(-4), b]);
    setTimeout(() => setBursts((all) => all.filter((o) => o !== b)), 900);
  };

  useEffect(() => {
    restorePrefs();
    $host.set({
      item: live ? undefined : item,
      video: () => frame.current?.querySelector('video') ?? null,
      root: () => frame.current,
      burst: () => burst(),
    });
    const unbind = bindShortcuts({ comments: () => reveal('#comments', true), related: () => reveal(RELATED) });
    // The feed's N lands here with #related.
    if (location.hash === '#related') reveal(RELATED);
    // The page's other player islands (the actions under the title) wake with this one, so both show the same state.
    dispatchEvent(new Event(WAKE_EVENT));
    return () => {
      unbind();
      $host.set(null);
    };
  }, [item, live]);

  // The mini player: on while the page's player box is out of view, unless the viewer had paused; closing it pauses.
  // Chrome pauses a muted autoplaying video that leaves the screen, so only a pause made in view counts as the viewer's.
  useEffect(() => {
    const el = slot.current;
    if (!el || !video) return;
    let inView = true;
    // Before hydration the viewer could not pause (their first key or click woke this island), so any pause was Chrome's.
    let userPaused = false;
    const onPause = () => {
      if (inView) userPaused = true;
    };
    const onPlay = () => {
      userPaused = false;
    };
    video.addEventListener('pause', onPause);
    video.addEventListener('play', onPlay);
    const io = new IntersectionObserver(([entry]) => {
      inView = !!entry?.isIntersecting;
      if (inView) {
        closed.current = false;
        setMini(false);
      } else if (!userPaused && !closed.current && matchMedia(MINI_PLAYER_MEDIA).matches) {
        setMini(true);
        void video.play().catch(() => {});
      }
    });
    io.observe(el);
    return () => {
      io.disconnect();
      video.removeEventListener('pause', onPause);
      video.removeEventListener('play', onPlay);
    };
  }, [video]);

  const clicks = useRef({ n: 0, timer: 0 as ReturnType<typeof setTimeout> | 0 });
  const onClick = (e: React.MouseEvent<HTMLVideoElement>) => {
    const c = clicks.current;
    c.n += 1;
    if (c.n === 1) {
      c.timer = setTimeout(() => {
        c.n = 0;
        const v = e.target as HTMLVideoElement;
        void (v.paused ? v.play().catch(() => {}) : v.pause());
      }, DOUBLE_CLICK_MS);
      return;
    }
    clearTimeout(c.timer);
    c.n = 0;
    if (live) return;
    const box = frame.current!.getBoundingClientRect();
    const x = e.clientX - box.left;
    const y = e.clientY - box.top;
    void toggleLike(item, true).then((ok) => ok && burst(x, y));
  };

  // In the page the frame is its own stacking context (isolate): the controls' z-indexes order them over the video
  // and must not lift them over the fixed header when the page scrolls them under it.
  const frameClass = webFull
    ? 'fixed inset-0 z-50 bg-black'
    : mini
      ? 'mini-player fixed bottom-4 right-4 z-40 lt-tablet:bottom-[calc(var(--tabbar-h)+8px)] aspect-video w-[min(360px,60vw)] overflow-hidden rounded-xl bg-black shadow-2xl'
      : 'absolute inset-0 isolate';

  return (
    <div ref={slot} className="absolute inset-0" data-player data-mini={mini}>
      <div ref={frame} className={frameClass}>
        <video
          ref={setVideo}
          className="absolute inset-0 h-full w-full object-contain"
          src={item.src}
          poster={item.poster}
          preload="auto"
          autoPlay
          muted
          loop={series ? !prefs.autoNext : loop}
          playsInline
          aria-label={item.desc}
          onClick={onClick}
        />
        {prefs.danmaku && !mini && !live && !clear && (
          <Suspense fallback={null}>
            <DanmakuLayer video={video} item={item} />
          </Suspense>
        )}
        {prefs.captions && item.captions && !mini && !live && <CaptionLayer video={video} captions={item.captions} />}
        {bursts.map((b) => (
          <Icon
            key={b.key}
            svg={riHeart3Fill}
            className="like-burst pointer-events-none absolute z-30 text-7xl text-accent"
            style={{ left: b.x, top: b.y }}
          />
        ))}
        {mini ? (
          <button
            type="button"
            aria-label={text.miniClose}
            onClick={() => {
              closed.current = true;
              setMini(false);
              video?.pause();
            }}
            className="focus-ring absolute right-2 top-2 z-20 flex h-8 w-8 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80"
          >
            <Icon svg={riCloseLine} className="text-lg" />
          </button>
        ) : (
          <PlayerControls video={video} item={item} text={text} live={live} autoNext={series} cleared={clear}>
            {prefs.danmaku && !live && (
              <Suspense fallback={null}>
                <DanmakuInput video={video} item={item} />
              </Suspense>
            )}
          </PlayerControls>
        )}
      </div>
      {dialog && (
        <Suspense fallback={null}>
          <ShortcutsDialog />
        </Suspense>
      )}
    </div>
  );
}
