/**
 * Tells the page's lazy loader (src/client/lazy-images.ts) that `list` holds new `<img data-src>`. Islands send its
 * event rather than import that module: a module shared with an island would take the page's inline script out into
 * a separate chunk on every first load.
 */
export function announceLazyImages(list: Element | null): void {
  // LAZY_IMAGES_ADDED of src/client/lazy-images.ts.
  list?.dispatchEvent(new Event('sy:lazy-images', { bubbles: true }));
}
