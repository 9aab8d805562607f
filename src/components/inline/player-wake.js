// Until the island hydrates, the server's markup plays on its own (muted autoplay). This keeps its clock and
// progress current, starts the neighbours' preload once the first video has data, and wakes the island on a key,
// a wheel, a touch or a scroll (client:interact wakes it on pointer and focus inside it), when the browser is first
// idle after the video's first frame and the page's load, or after a few seconds of watching, so a viewer who only
// watches still gets history and 自动连播. A key that woke it is replayed.
// Its settings are the script element's data attributes: its text never changes, so the page's Content-Security-Policy
// allows it by hash.
(() => {
  const own = document.currentScript.dataset;
  const feed = own.feed === 'true';
  const pendingKey = own.pendingKey;
  const boundKey = own.boundKey;
  const swipeKey = own.swipeKey;
  const swipeEvent = own.swipeEvent;
  const WATCHED_S = 3;
  const events = ['keydown', 'wheel', 'touchstart', 'scroll'];
  let woke = false;
  const wake = () => {
    if (woke) return;
    woke = true;
    if (island?.hasAttribute('ssr')) dispatchEvent(new Event('sy:hydrate-player'));
  };
  const onEvent = (e) => {
    // The island listens for its keys now: it handles everything from here. Until then (its hydration can take a
    // while after it woke on a pointer or a focus) a key is kept for it.
    if (window[boundKey]) {
      for (const type of events) removeEventListener(type, onEvent, true);
      return wake();
    }
    if (e.type === 'keydown') {
      if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, textarea, select, [contenteditable]'))
        return;
      window[pendingKey] = {
        key: e.key,
        code: e.code,
        shiftKey: e.shiftKey,
        ctrlKey: false,
        metaKey: false,
        altKey: false,
      };
      if (e.key === ' ' || e.key.startsWith('Arrow')) e.preventDefault();
    } else if (feed && e.type === 'wheel' && Math.abs(e.deltaY) > 3) {
      window[pendingKey] = {
        key: e.deltaY > 0 ? 'ArrowDown' : 'ArrowUp',
        code: '',
        shiftKey: false,
        ctrlKey: false,
        metaKey: false,
        altKey: false,
      };
    }
    wake();
  };
  for (const type of events) addEventListener(type, onEvent, { capture: true, passive: type !== 'keydown' });
  // A swipe over the feed that starts before the island has hydrated never reaches its pointer handlers: it is
  // recorded here and the island pages by it once it can (src/client/feed-swipe.ts judges it).
  let swipe = null;
  if (feed) {
    const opts = { capture: true, passive: true };
    addEventListener(
      'touchstart',
      (e) => {
        const on = island?.hasAttribute('ssr') && e.touches.length === 1 && island.contains(e.target);
        swipe =
          on && !e.target.closest('button, a, input, textarea, [data-scroll-own]')
            ? { y: e.touches[0].clientY, t: e.timeStamp }
            : null;
      },
      opts,
    );
    addEventListener(
      'touchend',
      (e) => {
        if (!swipe || !e.changedTouches[0]) return;
        window[swipeKey] = { dy: e.changedTouches[0].clientY - swipe.y, ms: e.timeStamp - swipe.t };
        swipe = null;
        dispatchEvent(new Event(swipeEvent));
      },
      opts,
    );
    addEventListener('touchcancel', () => (swipe = null), opts);
  }
  const video = document.querySelector(feed ? '[data-active="true"] video' : '[data-player] video');
  const island = video?.closest('astro-island');
  const bar =
    video?.parentElement?.querySelector('.player-bar') ??
    video?.parentElement?.parentElement?.querySelector('.player-bar');
  const fill = bar?.querySelector('[data-fill]');
  const clock = bar?.querySelector('[data-clock]')?.firstChild;
  const mmss = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  const tick = () => {
    if (woke || !island?.hasAttribute('ssr')) return video.removeEventListener('timeupdate', tick);
    const d = video.duration || 1;
    if (fill) fill.style.transform = `scaleX(${Math.min(1, video.currentTime / d)})`;
    if (clock) clock.data = `${mmss(video.currentTime)} / ${mmss(d)}`;
    if (video.currentTime > WATCHED_S) wake();
  };
  video?.addEventListener('timeupdate', tick);
  // The feed's next videos wait (preload="none", no poster yet) until this one has put its first frame on screen,
  // then get their posters and preload. Not at loadeddata: that fires when the frame is decoded, and starting two
  // more players then (22 ms of main thread in a trace, plus their fetches and decoding) delayed its presentation.
  const warm = () => {
    for (const next of document.querySelectorAll('article[data-index] video[preload="none"]')) {
      if (next.dataset.poster) next.poster = next.dataset.poster;
      next.preload = 'auto';
    }
  };
  // The island hydrates while the browser is idle once the video shows its first frame and the page has loaded, so the
  // first swipe, like or comment is answered by a hydrated island, as every later one is, instead of waiting for React
  // and the island to load and hydrate (350 ms on the feed). Not earlier: the frame comes first, and what loads after
  // the load event is no part of the page's first load. Hydration runs in a transition (@astrojs/react), in slices
  // that yield to input. A video that shows no frame (autoplay refused, a broken file) wakes it a little after load.
  // With Data Saver on, React waits for the viewer to reach for it.
  const IDLE_TIMEOUT_MS = 2000;
  const NO_FRAME_MS = 3000;
  let idling = false;
  const wakeWhenIdle = () => {
    if (idling || navigator.connection?.saveData) return;
    idling = true;
    const idle = () =>
      window.requestIdleCallback ? requestIdleCallback(wake, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(wake, 1);
    if (document.readyState === 'complete') idle();
    else addEventListener('load', idle, { once: true });
  };
  const firstFrame = () => {
    warm();
    wakeWhenIdle();
  };
  if (video?.requestVideoFrameCallback) video.requestVideoFrameCallback(firstFrame);
  else video?.addEventListener('loadeddata', firstFrame, { once: true });
  addEventListener('load', () => setTimeout(wakeWhenIdle, NO_FRAME_MS), { once: true });
})();
