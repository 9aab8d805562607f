/** Lazy images (spec point 4): an <img data-src> gets its source when first visible, then is no longer watched. */
export function watchLazyImages(root: ParentNode = document): void {
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
