import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  riCollapseDiagonalLine,
  riExpandDiagonalLine,
  riFullscreenExitLine,
  riFullscreenLine,
  riMoreFill,
  riPauseFill,
  riPlayFill,
  riVolumeMuteFill,
  riVolumeMuteLine,
  riVolumeUpLine,
} from '../shared/icons.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { reportProgress } from '../stores/watch-progress.ts';
import {
  $clear,
  $muted,
  $prefs,
  $webFull,
  RATES,
  setRate,
  setVolume,
  toggleAutoNext,
  toggleCaptions,
  toggleClear,
  toggleDanmaku,
  toggleFullscreen,
  toggleMute,
  togglePlay,
  toggleWebFull,
} from '../stores/player.ts';
import { Icon } from './Icon.tsx';
import type { PlayerText } from './PlayerText.ts';
import { ChoiceMenu } from './ChoiceMenu.tsx';
import { PlayerNote } from './PlayerNote.tsx';
import { SwitchTrack } from './SwitchTrack.tsx';
import { QualityMenu } from './QualityMenu.tsx';
import { useRendition } from './useRendition.ts';

/** Seconds as m:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

interface Media {
  time: number;
  duration: number;
  /** End of the buffered range around the playhead, in seconds. */
  buffered: number;
  paused: boolean;
}

const MEDIA_EVENTS = ['timeupdate', 'progress', 'play', 'pause', 'durationchange', 'seeking', 'loadeddata', 'emptied'];

/** The playhead, length, buffered end and paused flag of `video`, following its events. */
function useMedia(video: HTMLVideoElement | null, fallback: number): Media {
  // The server's markup autoplays, so it starts out showing 暂停; the first event corrects it.
  const [media, setMedia] = useState<Media>({ time: 0, duration: fallback, buffered: 0, paused: false });
  useEffect(() => {
    if (!video) return;
    const read = () => {
      const t = video.currentTime;
      let buffered = 0;
      for (let i = 0; i < video.buffered.length; i++)
        if (video.buffered.start(i) <= t + 0.5) buffered = video.buffered.end(i);
      setMedia({
        time: t,
        duration: video.duration > 0 && Number.isFinite(video.duration) ? video.duration : fallback,
        buffered,
        paused: video.paused,
      });
    };
    read();
    for (const e of MEDIA_EVENTS) video.addEventListener(e, read);
    return () => {
      for (const e of MEDIA_EVENTS) video.removeEventListener(e, read);
    };
  }, [video, fallback]);
  return media;
}

/** How far `video` has played, from 0 to 1. */
const playedShare = (video: HTMLVideoElement) =>
  video.duration > 0 && Number.isFinite(video.duration) ? Math.min(1, video.currentTime / video.duration) : 0;

/**
 * Draws `video`'s played line in `fill` as one linear animation from where the video is to its end, at its speed, made
 * again only when it starts or stops playing, seeks (a loop seeks to its start), changes speed or drifts. The compositor
 * moves it: a transition to each new time, four a second, asked the main thread for a frame every frame it played.
 */
function usePlayedLine(video: HTMLVideoElement | null, fill: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const el = fill.current;
    if (!video || !el) return;
    let run: Animation | undefined;
    let from = 0;
    const draw = () => {
      run?.cancel();
      run = undefined;
      from = playedShare(video);
      el.style.transform = `scaleX(${from})`;
      const left = video.duration - video.currentTime;
      // HAVE_FUTURE_DATA: a video waiting for data stands still, and so does its line.
      if (video.paused || video.seeking || video.readyState < 3 || !(left > 0) || !Number.isFinite(left)) return;
      run = el.animate([{ transform: `scaleX(${from})` }, { transform: 'scaleX(1)' }], {
        duration: (left * 1000) / video.playbackRate,
        easing: 'linear',
        fill: 'forwards',
      });
    };
    // The animation's clock set to the video's: an animation starts at the frame after it is made, a frame that can
    // come a tenth of a second late on a busy device, and a clock can drift or stall without an event. Moving a running
    // animation's time writes nothing to the element and lays nothing out.
    const sync = () => {
      const timing = run?.effect?.getComputedTiming();
      if (!run || !timing || typeof timing.duration !== 'number' || from >= 1) return;
      const progress = Math.min(1, Math.max(0, (playedShare(video) - from) / (1 - from)));
      run.currentTime = progress * timing.duration;
    };
    const drawAndSync = () => {
      draw();
      void run?.ready.then(sync, () => {});
    };
    // At a time update the line is where the video is to a hundredth, or set there.
    const check = () => {
      const progress = run?.effect?.getComputedTiming().progress;
      const drawn = progress == null ? from : from + progress * (1 - from);
      // A line that cannot run (a live stream's length is unknown) is not written again at every time update.
      const canRun = Number.isFinite(video.duration) && video.duration > 0;
      const off = Math.abs(drawn - playedShare(video)) > 0.01;
      if (run) {
        if (off) sync();
      } else if (off || (canRun && !video.paused)) drawAndSync();
    };
    const events = [
      'play',
      'playing',
      'pause',
      'waiting',
      'seeking',
      'seeked',
      'ratechange',
      'durationchange',
      'emptied',
    ];
    for (const e of events) video.addEventListener(e, drawAndSync);
    video.addEventListener('timeupdate', check);
    // The page's script kept the line before the island woke; its style is taken over here.
    for (const a of el.getAnimations()) a.cancel();
    drawAndSync();
    return () => {
      run?.cancel();
      for (const e of events) video.removeEventListener(e, drawAndSync);
      video.removeEventListener('timeupdate', check);
    };
  }, [video, fill]);
}

/** Applies the remembered volume, mute and speed to `video`, and records its watch history (logged-in viewers; not for a live stream). */
export function usePlayback(video: HTMLVideoElement | null, item: VideoItem, live = false): void {
  const { volume, rate } = useStore($prefs);
  const muted = useStore($muted);
  // A live room plays at its own pace: 倍速 is for videos.
  const speed = live ? 1 : rate;
  useEffect(() => {
    if (!video) return;
    video.volume = volume;
    video.muted = muted;
    video.defaultPlaybackRate = speed;
    video.playbackRate = speed;
  }, [video, volume, muted, speed]);

  useEffect(() => {
    if (!video || live) return;
    const at = () => video.currentTime;
    const tick = () => reportProgress(item.id, at());
    const pause = () => reportProgress(item.id, at(), 'final');
    const leave = () => reportProgress(item.id, at(), 'unload');
    const hidden = () => document.visibilityState === 'hidden' && leave();
    video.addEventListener('timeupdate', tick);
    video.addEventListener('pause', pause);
    addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      video.removeEventListener('timeupdate', tick);
      video.removeEventListener('pause', pause);
      removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hidden);
      if (at() > 0) reportProgress(item.id, at(), 'final');
    };
  }, [video, item.id, live]);
}

const rateLabel = (r: number) => `${r}x`;

const pct = (part: number, whole: number) => `${whole > 0 ? Math.min(100, (part / whole) * 100) : 0}%`;

// A phone's thumb needs 44 px targets.
const ICON_BTN = 'pc-btn';

interface SwitchProps {
  label: string;
  /** The accessible name, when longer than the label shown (it holds the label). */
  name?: string;
  on: boolean;
  onClick: () => void;
}

function Switch({ label, name, on, onClick }: SwitchProps) {
  const [flipped, setFlipped] = useState(false);
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={name}
      onClick={() => {
        setFlipped(true);
        onClick();
      }}
      className="pc-switch"
    >
      <SwitchTrack on={on} eased={flipped} off="bg-white/35" />
      {label}
    </button>
  );
}

interface Props {
  video: HTMLVideoElement | null;
  item: VideoItem;
  text: PlayerText;
  /** The feed adds 清屏 (and places 取消静音 below its phone header). */
  feed?: boolean;
  /** The 连播 switch: where a video's end can move on to the next (the feed, a 合集). */
  autoNext?: boolean;
  /** 清屏 on a single video's page: the bar hides until the pointer or focus comes to it, and 取消静音 stays away. */
  cleared?: boolean;
  /** A live stream: no 弹幕 switch (the room has its chat) and no watch history. */
  live?: boolean;
  /** Shown in the middle of the bar (the danmaku input). */
  children?: ReactNode;
}

/** The control bar over a video (play, progress with buffered range, time, 弹幕, speed, 清晰度, volume, fullscreen) and the 取消静音 button. */
export function PlayerControls({
  video,
  item,
  text,
  feed = false,
  autoNext = false,
  cleared = false,
  live = false,
  children,
}: Props) {
  const { time, duration, buffered, paused } = useMedia(video, item.duration / 1000);
  const fill = useRef<HTMLDivElement>(null);
  usePlayedLine(video, fill);
  const prefs = useStore($prefs);
  const muted = useStore($muted);
  const clear = useStore($clear);
  const webFull = useStore($webFull);
  const [full, setFull] = useState(false);
  const [more, setMore] = useState(false);
  const moreId = useId();
  usePlayback(video, item, live);
  const { quality, playing } = useRendition(video, item);

  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const seek = (seconds: number) => {
    if (video) video.currentTime = seconds;
  };

  return (
    <>
      <PlayerNote text={text} />
      {muted && !cleared && (
        <button
          type="button"
          onClick={toggleMute}
          // The feed's phone header lies over the video.
          className={`focus-ring absolute left-4 top-4 z-20 ${feed ? 'lt-tablet:(left-3 top-[calc(var(--header-h)+8px)])' : ''} flex h-9 items-center gap-1.5 rounded-full bg-black/55 px-4 text-sm text-white hover:bg-black/70`}
        >
          <Icon svg={riVolumeMuteFill} className="text-lg" />
          {text.unmute}
        </button>
      )}
      <div
        role="group"
        aria-label={text.controls}
        data-cleared={cleared || undefined}
        className={`player-bar absolute inset-x-0 bottom-0 z-20 bg-gradient-to-t from-black/65 to-transparent px-3 pb-1.5 pt-8 text-white transition-opacity ${cleared ? 'opacity-0 hover:opacity-100 focus-within:opacity-100' : ''}`}
      >
        {/* The line stays slim; on a phone the range around it is a thumb's height. */}
        <div className="group/p relative flex h-4 items-center rounded focus-within:(outline-2 outline-solid outline-accent) lt-tablet:h-8">
          <div
            className="absolute inset-x-0 h-1 overflow-hidden rounded-full bg-white/25 transition-all group-hover/p:h-1.5"
            aria-hidden="true"
          >
            <div className="absolute inset-y-0 left-0 bg-white/40" style={{ width: pct(buffered, duration) }} />
            {/* Scaled by an animation (usePlayedLine), not sized by each time update. */}
            <div data-fill ref={fill} className="absolute inset-0 origin-left scale-x-0 bg-white" />
          </div>
          <input
            type="range"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            aria-label={text.progress}
            data-seek
            aria-valuetext={`${clock(time)} / ${clock(duration)}`}
            onChange={(e) => seek(Number(e.currentTarget.value))}
            className="absolute inset-0 h-full w-full cursor-pointer opacity-0"
          />
        </div>
        <div className="flex h-9 items-center gap-2 text-sm">
          <button type="button" className={ICON_BTN} aria-label={paused ? text.play : text.pause} onClick={togglePlay}>
            <Icon svg={paused ? riPlayFill : riPauseFill} className="text-xl" />
          </button>
          {/* One text node: before hydration the page's inline script keeps it current (VideoPlayer.astro). */}
          <span data-clock className="whitespace-nowrap text-xs tabular-nums" suppressHydrationWarning>
            {`${clock(time)} / ${clock(duration)}`}
          </span>
          <span className="flex min-w-0 flex-1 justify-center lt-tablet:invisible">{children}</span>
          {/* On a phone the bar keeps play, time, volume and fullscreen; the rest opens from ⋯ above it. */}
          <div
            id={moreId}
            className={
              more
                ? 'contents lt-tablet:(absolute bottom-full right-2 flex flex-col items-start rounded-xl bg-black/80 p-2)'
                : 'contents lt-tablet:hidden'
            }
          >
            {!live && <Switch label={text.danmaku} on={prefs.danmaku} onClick={toggleDanmaku} />}
            {!live && item.captions && <Switch label={text.captions} on={prefs.captions} onClick={toggleCaptions} />}
            {feed && (
              <button type="button" aria-pressed={clear} onClick={toggleClear} className={`${ICON_BTN} text-xs`}>
                {text.clear}
              </button>
            )}
            {!live && (
              <ChoiceMenu
                name={text.speed}
                current={prefs.rate === 1 ? text.speed : rateLabel(prefs.rate)}
                entries={RATES.map((r) => ({ value: r, label: rateLabel(r) }))}
                checked={prefs.rate}
                onPick={setRate}
              />
            )}
            {autoNext && (
              <Switch
                label={text.autoNextShort}
                name={text.autoNext}
                on={prefs.autoNext}
                onClick={() => toggleAutoNext()}
              />
            )}
            {item.renditions.length > 0 && (
              <QualityMenu renditions={item.renditions} quality={quality} playing={playing} text={text} />
            )}
          </div>
          <div className="group/v flex items-center">
            <button
              type="button"
              className={ICON_BTN}
              aria-label={muted ? text.unmute : text.mute}
              onClick={toggleMute}
            >
              <Icon svg={muted ? riVolumeMuteLine : riVolumeUpLine} className="text-lg" />
            </button>
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={muted ? 0 : prefs.volume}
              aria-label={text.volume}
              onChange={(e) => setVolume(Number(e.currentTarget.value))}
              className="w-0 accent-accent opacity-0 transition-all group-hover/v:(w-20 opacity-100) focus:(w-20 opacity-100) lt-tablet:hidden"
            />
          </div>
          <button
            type="button"
            className={`${ICON_BTN} tablet:hidden`}
            aria-label={text.more}
            aria-expanded={more}
            aria-controls={moreId}
            onClick={() => setMore(!more)}
          >
            <Icon svg={riMoreFill} className="text-lg" />
          </button>
          {/* On a phone the page is the screen: 网页全屏 repeats 全屏 (and Y still toggles it), and the bar has no room for both. */}
          <button
            type="button"
            className={`${ICON_BTN} lt-tablet:hidden`}
            aria-pressed={webFull}
            aria-label={webFull ? text.exitWebFull : text.webFull}
            onClick={toggleWebFull}
          >
            <Icon svg={webFull ? riCollapseDiagonalLine : riExpandDiagonalLine} className="text-lg" />
          </button>
          <button
            type="button"
            className={ICON_BTN}
            aria-label={full ? text.exitFull : text.full}
            onClick={toggleFullscreen}
          >
            <Icon svg={full ? riFullscreenExitLine : riFullscreenLine} className="text-lg" />
          </button>
        </div>
      </div>
    </>
  );
}
