import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { Rendition, VideoItem } from '../shared/video-item.ts';
import { $bandwidth, $quality, chooseRendition, watchBandwidth, type Quality } from '../stores/quality.ts';

/** A switch under way: where the video was and whether it played, and the listener that puts it back. */
const pending = new WeakMap<HTMLVideoElement, { at: number; playing: boolean; done: () => void }>();

/** Plays `url` in `video` from the same moment, playing or paused as it was (a second switch before the first loaded keeps the first's place). */
function switchSource(video: HTMLVideoElement, url: string): void {
  const before = pending.get(video);
  if (before) video.removeEventListener('loadedmetadata', before.done);
  // An autoplaying video that has not started yet counts as playing.
  const at = before?.at ?? video.currentTime;
  const playing = before?.playing ?? (!video.paused || (video.autoplay && video.played.length === 0));
  const done = () => {
    pending.delete(video);
    if (at > 0) video.currentTime = at;
    if (playing) void video.play().catch(() => {});
  };
  pending.set(video, { at, playing, done });
  video.addEventListener('loadedmetadata', done, { once: true });
  video.src = url;
  // Loading a source restarts the autoplay attribute's play: a paused video stays paused.
  if (!playing) video.pause();
}

const sameUrl = (a: string, b: string) => !!b && new URL(a, location.href).href === b;

/**
 * 清晰度 for one <video>: picks the rendition (the menu's choice, or 智能 by the element's size and the measured
 * bandwidth, again when the element is resized) and switches the source to it. Returns the remembered choice and the
 * rendition playing; both stay at their server-rendered values (智能, none) until `video` is known, so hydration matches.
 */
export function useRendition(
  video: HTMLVideoElement | null,
  item: Pick<VideoItem, 'src' | 'renditions'>,
): { quality: Quality; playing?: Rendition } {
  const { src, renditions } = item;
  const quality = useStore($quality);
  const bandwidth = useStore($bandwidth);
  const [playing, setPlaying] = useState<Rendition>();

  useEffect(() => {
    if (!video || renditions.length === 0) return;
    watchBandwidth();
    const apply = () => {
      const loaded = video.getAttribute('src') ? video.src : video.currentSrc;
      const current = renditions.find((r) => sameUrl(r.url, loaded));
      // The feed hands over its new video a render after its new item: until then `video` shows another work.
      if (!current && !sameUrl(src, loaded)) return;
      const box = video.getBoundingClientRect();
      // A hidden element (0×0) says nothing of the size it will have: keep what plays.
      if (box.width === 0 && current) return setPlaying(current);
      const next = chooseRendition(renditions, { quality, box, dpr: devicePixelRatio || 1, bandwidth, current });
      if (next && next !== current) switchSource(video, next.url);
      setPlaying(next);
    };
    apply();
    const resized = new ResizeObserver(apply);
    resized.observe(video);
    return () => resized.disconnect();
  }, [video, src, renditions, quality, bandwidth]);

  return video ? { quality, playing } : { quality: 'auto' };
}
