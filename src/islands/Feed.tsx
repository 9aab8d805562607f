import { useStore } from '@nanostores/react';
import { $mutes } from '../stores/mutes.ts';
import { isMuted } from '../shared/mutes.ts';
import { hashtagNames } from '../shared/hashtag-text.ts';
import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { PENDING_SWIPE_EVENT, swipeStep, takePendingSwipe } from '../client/feed-swipe.ts';
import { bindShortcuts } from '../client/shortcuts.ts';
import { riArrowDownSLine, riArrowUpSLine, riHeart3Fill } from '../shared/icons.ts';
import { readPageData, type PageData } from '../shared/page-data.ts';
import type { LessKind } from '../shared/feed-reason.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { feedPages } from '../stores/feed-pages.ts';
import { CaptionLayer } from './CaptionLayer.tsx';
import { $clear, $host, $panel, $prefs, $shortcutsOpen, $webFull, restorePrefs } from '../stores/player.ts';
import { markLess } from '../stores/feed-steer.ts';
import { markNotInterested, toggleLike } from '../stores/video-actions.ts';
import { Icon } from './Icon.tsx';
import { PlayerControls } from './PlayerControls.tsx';
import type { PlayerText } from './PlayerText.ts';
import { Follow, VideoActions } from './VideoActions.tsx';

const ShortcutsDialog = lazy(() => import('./ShortcutsDialog.tsx').then((m) => ({ default: m.ShortcutsDialog })));
const DanmakuLayer = lazy(() => import('./DanmakuLayer.tsx').then((m) => ({ default: m.DanmakuLayer })));
const DanmakuInput = lazy(() => import('./DanmakuLayer.tsx').then((m) => ({ default: m.DanmakuInput })));

const Comments = lazy(() => import('./Comments.tsx').then((m) => ({ default: m.Comments })));

/** Fetch the next page when this few videos are left ahead. */
const AHEAD = 3;
/** Wheel: one page per gesture; a gesture ends after this long without wheel events. */
const WHEEL_QUIET_MS = 220;
const WHEEL_REPEAT_MS = 900;
/** A click waits this long for a second one (double-click likes, a single click pauses). */
const DOUBLE_CLICK_MS = 260;

/** The feed's first page and the player's texts. */
export interface FeedData {
  items: VideoItem[];
  hasMore: boolean;
  /** Where the next page starts: the cursor the server's first page answered. */
  cursor: string;
  text: PlayerText;
}

interface Props {
  /** The first page and the texts, from the page's JSON block rather than props (src/shared/page-data.ts says why). */
  data: PageData<FeedData>;
  /** Page size of the server-rendered page and of every fetch. */
  count: number;
}

interface Burst {
  key: number;
  x: number;
  y: number;
}

const NAV_BTN =
  'focus-ring flex h-10 w-10 items-center justify-center rounded-full bg-raised text-primary hover:bg-hover disabled:opacity-30';

/** Where the related videos of `item` are (N). */
const relatedHref = (item: VideoItem) => `/video/${item.id}#related`;

/** The recommend feed: a vertical full-height swiper whose neighbours are preloaded. */
export function Feed({ data, count }: Props) {
  const [{ items: first, hasMore, cursor: next, text }] = useState(() => readPageData(data));
  const [feed] = useState(() => feedPages({ items: first, hasMore, cursor: next }, count));
  const items = useStore(feed.$items);
  const { cursor } = useStore(feed.$state);
  const [index, setIndex] = useState(0);
  const [drag, setDrag] = useState(0);
  const [bursts, setBursts] = useState<Burst[]>([]);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  // The neighbours preload once the video in front has shown its first frame, so they never compete with it.
  const [warm, setWarm] = useState(false);
  const prefs = useStore($prefs);
  const clear = useStore($clear);
  const webFull = useStore($webFull);
  const panel = useStore($panel);
  const dialog = useStore($shortcutsOpen);
  const root = useRef<HTMLElement>(null);
  const videos = useRef(new Map<string, HTMLVideoElement>());
  const state = useRef({ index, items });
  state.current = { index, items };
  const item = items[index];

  const page = useCallback((step: 1 | -1) => {
    const { index: i, items: list } = state.current;
    const next = Math.min(Math.max(i + step, 0), list.length - 1);
    if (next !== i) setIndex(next);
  }, []);

  const burst = useCallback((x?: number, y?: number) => {
    const box = root.current?.querySelector('[data-active="true"]')?.getBoundingClientRect();
    const b = { key: performance.now(), x: x ?? (box ? box.width / 2 : 0), y: y ?? (box ? box.height / 2 : 0) };
    setBursts((all) => [...all.slice(-4), b]);
    setTimeout(() => setBursts((all) => all.filter((o) => o !== b)), 900);
  }, []);

  const remove = useCallback(
    (id: string) => {
      feed.remove(id);
      setIndex((i) => Math.min(i, Math.max(0, state.current.items.length - 2)));
    },
    [feed],
  );

  /** 同时拉黑 from a 举报: the blocked author's works leave the feed at once, the one in front included. */
  const dropAuthor = useCallback(
    (secUid: string) => {
      for (const v of state.current.items) if (v.author.secUid === secUid) remove(v.id);
    },
    [remove],
  );

  // What the member muted leaves the feed (the page's first items were rendered for everyone), the one in front too.
  const mutes = useStore($mutes);
  useEffect(() => {
    if (!mutes) return;
    for (const v of state.current.items)
      if (isMuted(mutes, { author: v.author.secUid, text: v.desc, hashtags: hashtagNames(v.desc) })) remove(v.id);
  }, [mutes, remove]);

  /** X and the comment button: the side panel with the current video's comments, or closes it. */
  const openComments = useCallback(() => $panel.set($panel.get() ? null : 'comments'), []);

  // Preferences and shortcuts once; the panel and modes end with the page.
  useEffect(() => {
    restorePrefs();
    const unbind = bindShortcuts({
      comments: openComments,
      related: () => {
        const current = state.current.items[state.current.index];
        if (current) location.assign(relatedHref(current));
      },
      removed: () => {
        const current = state.current.items[state.current.index];
        if (current) remove(current.id);
      },
    });
    return () => {
      unbind();
      $host.set(null);
    };
  }, [openComments, remove]);

  // The video in front plays, the rest pause.
  useEffect(() => {
    if (!item) return;
    const v = videos.current.get(item.id) ?? null;
    // Handing the element over re-renders every slide: as a transition React renders them in pieces that yield to
    // input, where an ordinary update is one long task on a phone (one after hydration, one after each swipe). A first
    // frame already there warms the neighbours in that same re-render, not in a second one.
    startTransition(() => {
      setVideo(v);
      if (v && v.readyState >= 2) setWarm(true);
    });
    for (const [id, other] of videos.current) if (id !== item.id && !other.paused) other.pause();
    if (v) {
      if (v.ended) v.currentTime = 0;
      void v.play().catch(() => {
        // Sound not yet allowed: play muted, the 取消静音 button stays.
        v.muted = true;
        void v.play().catch(() => {});
      });
    }
    $host.set({
      item,
      video: () => videos.current.get(item.id) ?? null,
      root: () => root.current,
      page,
      burst: () => burst(),
    });
  }, [item, page, burst]);

  // The next page loads before the end is reached; a page of videos already shown (the ranking moved) moves the
  // cursor, which asks for the one after it.
  useEffect(() => {
    if (items.length - index <= AHEAD) void feed.load();
  }, [feed, index, items.length, cursor]);

  useEffect(() => {
    if (warm || !video) return;
    const ready = () => startTransition(() => setWarm(true));
    if (video.readyState >= 2) return ready();
    const id = video.requestVideoFrameCallback(ready);
    return () => video.cancelVideoFrameCallback(id);
  }, [video, warm]);

  // 自动连播 off: a video loops; on: its end moves to the next one. While the comments are open the video loops too:
  // the list being read, a reply being expanded or a draft being written stays with the video it is about.
  const moveOn = prefs.autoNext && panel !== 'comments';
  useEffect(() => {
    if (!video) return;
    video.loop = !moveOn;
    if (!moveOn) return;
    const ended = () => page(1);
    video.addEventListener('ended', ended);
    return () => video.removeEventListener('ended', ended);
  }, [video, moveOn, page]);

  // A swipe that began on the server's markup, before this island hydrated: its pointer events never reached it.
  useEffect(() => {
    const take = () => {
      const swipe = takePendingSwipe();
      const step = swipe && swipeStep(swipe);
      if (step) page(step);
    };
    take();
    addEventListener(PENDING_SWIPE_EVENT, take);
    return () => removeEventListener(PENDING_SWIPE_EVENT, take);
  }, [page]);

  // Wheel paging, one page per gesture; a non-passive listener so the page itself does not scroll.
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const w = { last: 0, paged: 0 };
    const onWheel = (e: WheelEvent) => {
      if ((e.target as HTMLElement).closest('[data-scroll-own]')) return;
      e.preventDefault();
      const now = e.timeStamp;
      const fresh = now - w.last > WHEEL_QUIET_MS;
      w.last = now;
      if (Math.abs(e.deltaY) < 4 || (!fresh && now - w.paged < WHEEL_REPEAT_MS)) return;
      w.paged = now;
      page(e.deltaY > 0 ? 1 : -1);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [page]);

  // Drag and swipe with pointer events; a tap pauses, a double tap likes.
  const gesture = useRef({
    id: -1,
    y: 0,
    t: 0,
    moved: false,
    clicks: 0,
    timer: 0 as ReturnType<typeof setTimeout> | 0,
  });
  const onPointerDown = (e: React.PointerEvent) => {
    if ((e.target as HTMLElement).closest('button, a, input, textarea, [data-scroll-own]') || e.button !== 0) return;
    gesture.current = { ...gesture.current, id: e.pointerId, y: e.clientY, t: e.timeStamp, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const g = gesture.current;
    if (g.id !== e.pointerId) return;
    const dy = e.clientY - g.y;
    if (!g.moved && Math.abs(dy) > 8) {
      g.moved = true;
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    }
    if (g.moved) setDrag(dy);
  };
  const onPointerUp = (e: React.PointerEvent) => {
    const g = gesture.current;
    if (g.id !== e.pointerId) return;
    g.id = -1;
    const dy = e.clientY - g.y;
    if (g.moved) {
      setDrag(0);
      const step = swipeStep({ dy, ms: e.timeStamp - g.t });
      if (step) page(step);
      return;
    }
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const x = e.clientX - box.left;
    const y = e.clientY - box.top;
    g.clicks += 1;
    if (g.clicks === 1) {
      g.timer = setTimeout(() => {
        g.clicks = 0;
        const v = videos.current.get(state.current.items[state.current.index]?.id ?? '');
        if (v) void (v.paused ? v.play().catch(() => {}) : v.pause());
      }, DOUBLE_CLICK_MS);
      return;
    }
    clearTimeout(g.timer);
    g.clicks = 0;
    const current = state.current.items[state.current.index];
    if (current) void toggleLike(current, true).then((ok) => ok && burst(x, y));
  };
  const onPointerCancel = () => {
    gesture.current.id = -1;
    setDrag(0);
  };

  const notInterested = async () => {
    if (item && (await markNotInterested(item))) remove(item.id);
  };

  /** 减少此类: recorded, the feed drops what it holds ahead of `v` of that channel or author (the server lowers the rest). */
  const less = async (v: VideoItem, kind: LessKind) => {
    if (!(await markLess(v, kind))) return;
    const { index: at, items: list } = state.current;
    const same = (o: VideoItem) =>
      kind === 'channel' ? o.reason?.channelId === v.reason?.channelId : o.author.secUid === v.author.secUid;
    for (const o of list.slice(at + 1)) if (o.id !== v.id && same(o)) feed.remove(o.id);
  };

  if (!item) return <p className="p-10 text-center text-muted">{text.end}</p>;

  const windowStart = Math.max(0, index - 1);
  const visible = items.slice(windowStart, index + 3);

  return (
    <section
      ref={root}
      aria-label={text.feed}
      aria-roledescription="carousel"
      className={
        webFull
          ? 'fixed inset-0 z-50 flex bg-black'
          : 'feed flex h-screen gap-3 p-4 pt-[calc(var(--header-h)+4px)] lt-tablet:relative lt-tablet:h-[calc(100dvh-var(--tabbar-h))] lt-tablet:p-0'
      }
    >
      <div
        className={`relative isolate min-w-0 flex-1 overflow-hidden bg-black ${webFull ? '' : 'rounded-2xl lt-tablet:rounded-none'}`}
      >
        <div
          className="absolute inset-0 touch-none select-none"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
        >
          <div
            className={`absolute inset-0 ${drag ? '' : 'transition-transform duration-300 ease-out motion-reduce:transition-none'}`}
            style={{ transform: `translate3d(0, calc(${-index * 100}% + ${drag}px), 0)` }}
          >
            {visible.map((v, k) => {
              const i = windowStart + k;
              const active = i === index;
              return (
                <article
                  key={v.id}
                  data-index={i}
                  data-video-id={v.id}
                  data-active={active}
                  aria-roledescription="slide"
                  aria-label={v.desc}
                  inert={!active}
                  className="absolute inset-x-0 h-full overflow-hidden"
                  style={{ top: `${i * 100}%` }}
                >
                  <video
                    ref={(el) => {
                      if (el) videos.current.set(v.id, el);
                      else videos.current.delete(v.id);
                    }}
                    className="absolute inset-0 h-full w-full object-contain"
                    src={v.src}
                    // The neighbours' posters wait too: painted below the fold of the slide track, each is a 540×960
                    // WebP decode (30-50 ms on a busy machine) racing the first video's frame for the CPU.
                    poster={active || warm ? v.poster : undefined}
                    data-poster={v.poster}
                    preload={active || warm ? 'auto' : 'none'}
                    autoPlay={i === 0}
                    muted
                    loop
                    playsInline
                    aria-label={v.desc}
                  />
                  <div
                    className={`pointer-events-none absolute inset-x-0 bottom-12 z-10 p-5 pr-24 text-white transition-opacity lt-tablet:(p-3 pr-20) ${clear ? 'opacity-0' : ''}`}
                  >
                    <div className="pointer-events-auto flex items-center gap-3">
                      <a
                        href={`/user/${v.author.secUid}`}
                        className="focus-ring min-w-0 truncate text-lg font-semibold drop-shadow"
                      >
                        @{v.author.nickname}
                      </a>
                      <Follow item={v} labels={text.follow} className="lt-tablet:hidden" />
                    </div>
                    <p className="mt-2 line-clamp-2 max-w-2xl text-sm leading-6 drop-shadow">
                      <a href={`/video/${v.id}`} className="pointer-events-auto focus-ring hover:underline">
                        {v.desc}
                      </a>
                    </p>
                  </div>
                  {/* Above the player bar (z-20), whose gradient reaches over 更多 on a phone and took its taps. */}
                  <div
                    className={`absolute bottom-20 right-3 z-30 flex flex-col items-center gap-4 transition-opacity ${clear ? 'pointer-events-none opacity-0' : ''}`}
                  >
                    <a
                      href={`/user/${v.author.secUid}`}
                      className="focus-ring block rounded-full border-2 border-white"
                      aria-label={v.author.nickname}
                    >
                      <img
                        src={v.author.avatar}
                        alt=""
                        width="44"
                        height="44"
                        className="h-11 w-11 rounded-full object-cover"
                      />
                    </a>
                    {/* On a phone 关注 sits on the avatar's lower edge, as in the apps; beside the name on a wide screen. */}
                    <Follow item={v} labels={text.follow} size="badge" className="-mb-2 -mt-9 tablet:hidden" />
                    <VideoActions
                      item={v}
                      text={text}
                      variant="column"
                      onComment={openComments}
                      onNotInterested={notInterested}
                      onLess={(kind) => void less(v, kind)}
                      onLiked={() => burst()}
                      onBlocked={dropAuthor}
                    />
                  </div>
                  {active && prefs.danmaku && (
                    <Suspense fallback={null}>
                      <DanmakuLayer video={video} item={v} />
                    </Suspense>
                  )}
                  {active && prefs.captions && v.captions && <CaptionLayer video={video} captions={v.captions} />}
                  {active && (
                    <PlayerControls video={video} item={v} text={text} feed autoNext>
                      {prefs.danmaku && (
                        <Suspense fallback={null}>
                          <DanmakuInput video={video} item={v} />
                        </Suspense>
                      )}
                    </PlayerControls>
                  )}
                </article>
              );
            })}
          </div>
          {bursts.map((b) => (
            <Icon
              key={b.key}
              svg={riHeart3Fill}
              className="like-burst pointer-events-none absolute z-30 text-7xl text-accent"
              style={{ left: b.x, top: b.y }}
            />
          ))}
        </div>
      </div>
      {/* A phone pages by swiping: no room beside the video for the buttons. */}
      <div
        className={`flex shrink-0 flex-col justify-center gap-3 lt-tablet:hidden ${webFull ? 'absolute right-3 top-1/2 z-20 -translate-y-1/2' : ''} ${clear ? 'invisible' : ''}`}
      >
        <button
          type="button"
          aria-label={text.prev}
          disabled={index === 0}
          onClick={() => page(-1)}
          className={NAV_BTN}
        >
          <Icon svg={riArrowUpSLine} className="text-2xl" />
        </button>
        <button
          type="button"
          aria-label={text.next}
          disabled={index >= items.length - 1}
          onClick={() => page(1)}
          className={NAV_BTN}
        >
          <Icon svg={riArrowDownSLine} className="text-2xl" />
        </button>
      </div>
      {panel === 'comments' && (
        // On a phone the comments rise over the lower part of the video, as a sheet.
        <aside
          className="w-[380px] shrink-0 overflow-hidden rounded-2xl bg-surface lt-tablet:(absolute inset-x-0 bottom-0 z-30 h-[70%] w-auto rounded-b-none)"
          data-scroll-own
        >
          <Suspense fallback={null}>
            <Comments key={item.id} awemeId={item.id} variant="panel" onClose={() => $panel.set(null)} />
          </Suspense>
        </aside>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <ShortcutsDialog />
        </Suspense>
      )}
    </section>
  );
}
