/** Lazy images: an <img data-src> gets its source when first visible, then is no longer watched. */

/**
 * Islands that append such images dispatch this event (bubbling) from their list rather than import this module: a
 * module shared with an island would leave the page's inline script for a separate chunk on every first load.
 */
export const LAZY_IMAGES_ADDED = 'sy:lazy-images';

/** Watches the images under `root`; on the document, also those under the target of each LAZY_IMAGES_ADDED event. */
export function watchLazyImages(root: ParentNode = document): void {
  if (root === document) document.addEventListener(LAZY_IMAGES_ADDED, (e) => watchLazyImages(e.target as Element));
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
