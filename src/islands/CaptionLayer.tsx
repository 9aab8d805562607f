import { useEffect, useState } from 'react';
import type { VideoItem } from '../shared/video-item.ts';

interface Props {
  video: HTMLVideoElement | null;
  captions: NonNullable<VideoItem['captions']>;
}

/**
 * 字幕 over the video: the browser reads the WebVTT file as a hidden text track and says which cues are active; this
 * draws them itself, just above the control bar and over the danmaku, in a dark box that reads on any frame and in
 * either theme (the native rendering sits under the controls and cannot be styled everywhere).
 */
export function CaptionLayer({ video, captions }: Props) {
  const [lines, setLines] = useState<string[]>([]);

  useEffect(() => {
    if (!video) return;
    const el = document.createElement('track');
    el.kind = 'subtitles';
    el.srclang = captions.lang;
    el.src = captions.url;
    el.dataset.captions = '';
    video.append(el);
    const track = el.track;
    track.mode = 'hidden';
    const show = () => {
      const active = track.activeCues ? Array.from(track.activeCues) : [];
      setLines(active.map((cue) => (cue as VTTCue).text));
    };
    track.addEventListener('cuechange', show);
    show();
    return () => {
      track.removeEventListener('cuechange', show);
      track.mode = 'disabled';
      el.remove();
      setLines([]);
    };
  }, [video, captions.url, captions.lang]);

  if (lines.length === 0) return null;
  return (
    <div
      className="caption-layer pointer-events-none absolute inset-x-3 bottom-[72px] z-[21] flex flex-col items-center gap-1 text-center lt-tablet:bottom-[92px]"
      aria-live="off"
      data-captions-shown
    >
      {lines.map((text, i) => (
        <p
          key={i}
          className="max-w-[min(92%,720px)] whitespace-pre-line rounded-md bg-black/70 px-3 py-1 text-[15px] font-medium leading-snug text-white [text-shadow:0_1px_2px_rgba(0,0,0,0.8)] lt-tablet:text-sm"
        >
          {text}
        </p>
      ))}
    </div>
  );
}
