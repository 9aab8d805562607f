/**
 * Which pages are about the viewer: only these render for a member's session (`private, no-store`). Every other page
 * shows public content and is one HTML for every viewer, member or not: the page door hands its render a request
 * without the session (page-answers.ts), so nothing personal can reach a copy that the shared cache, a CDN or nginx
 * keeps, whoever's visit rendered it. What is the viewer's own on those pages (liked, followed, unread, their avatar)
 * arrives after first paint through one call (src/client/marks.ts).
 */

/** Paths, each with everything under it, rendered for the viewer. */
const PERSONAL = [
  '/user/self',
  '/follow',
  '/friend',
  '/post',
  '/settings',
  '/admin',
  // Confirming a QR login names the viewer; it forbids caching itself.
  '/passport/qr',
  // Each visit is logged to the viewer's search history and moves 热搜: it forbids caching itself.
  '/search/',
];

/** Whether the page at `path` (a URL path, without its query) is about the viewer. */
export function isPersonalPage(path: string): boolean {
  return PERSONAL.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
}

/**
 * Pages about the viewer that are kept for them alone, briefly (page-answers.ts): their profile, 关注 and 朋友. A copy is
 * theirs only (its key holds their id, `private, no-store` goes with it), goes at once when they write anything
 * (member-writes.ts), turns stale a second after anyone else's write, as the shared copies do, and lives at most
 * PAGE_FRESH_MS. The studio, settings and search are left out: what they show changes with work done in the background
 * (a video being processed) or each visit must reach the page.
 */
const KEPT_FOR_MEMBER = ['/user/self', '/follow', '/friend'];

/** Whether the page at `path` (a URL path, without its query) is kept for the member it was rendered for. */
export function isKeptForMember(path: string): boolean {
  return KEPT_FOR_MEMBER.includes(path);
}
