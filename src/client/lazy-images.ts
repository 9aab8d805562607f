/**
 * Lazy images: an <img data-src> gets its source when first visible, then is no longer watched. On a page that opens
 * with a playing video (a video page, the feed) they also wait for that video's first frame: each picture would take
 * one of the browser's few connections to the server and main-thread time to decode while the video still needs them
 * (the related cards beside a video page's player held its first frame back by about 60 ms).
 */

/** How long pictures wait for the video before loading anyway (a slow or stalled video must not keep them blank). */
const VIDEO_FIRST_MS = 1500;

/**
 * Islands that append such images dispatch this event (bubbling) from their list (src/islands/announceLazyImages.ts)
 * rather than import this module: a module shared with an island would leave the page's inline script for a separate
 * chunk on every first load.
 */
export const LAZY_IMAGES_ADDED = 'sy:lazy-images';

let videoFirst: Promise<void> | undefined;

/** Resolves once the video the page opened with has a frame to show, fails, or VIDEO_FIRST_MS have passed. */
const afterVideo = () =>
  (videoFirst ??= new Promise((resolve) => {
    const video = document.querySelector<HTMLVideoElement>('main video[autoplay]');
    // 2: HAVE_CURRENT_DATA, a frame to show.
    if (!video || video.readyState >= 2) return resolve();
    for (const type of ['loadeddata', 'error']) video.addEventListener(type, () => resolve(), { once: true });
    setTimeout(resolve, VIDEO_FIRST_MS);
  }));

/** Watches the images under `root`; on the document, also those under the target of each LAZY_IMAGES_ADDED event. */
export function watchLazyImages(root: ParentNode = document): void {
  if (root === document) document.addEventListener(LAZY_IMAGES_ADDED, (e) => watchLazyImages(e.target as Element));
  void afterVideo().then(() => watch(root));
}

function watch(root: ParentNode): void {
  const images = root.querySelectorAll<HTMLImageElement>('img[data-src]');
  if (!('IntersectionObserver' in window)) {
    images.forEach(load);
    return;
  }
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        load(e.target as HTMLImageElement);
        io.unobserve(e.target);
      }
    },
    { rootMargin: '200px 0px' },
  );
  images.forEach((img) => io.observe(img));
}

function load(img: HTMLImageElement): void {
  const src = img.dataset.src;
  if (!src) return;
  img.src = src;
  img.removeAttribute('data-src');
}
