/**
 * 默认页面 (settings → 通用设置): where the logo and a visit to the site root lead, 推荐 (/) or 首页 (/discover).
 * Kept in a cookie, not localStorage: it belongs to the browser and must outlive a logout, which clears localStorage.
 * The inline script of src/components/Sidebar.astro reads the same cookie before first paint.
 */
export const HOME_COOKIE = 'sy_home';
export type DefaultPage = 'recommend' | 'discover';

/** The chosen default page; 推荐 unless 首页 was chosen. */
export function getDefaultPage(cookie = document.cookie): DefaultPage {
  return /(?:^|;\s*)sy_home=discover(?:;|$)/.test(cookie) ? 'discover' : 'recommend';
}

export function homeHref(page: DefaultPage): string {
  return page === 'discover' ? '/discover' : '/';
}

/** Remembers the choice for a year and points the logo at it. Values other than the two are ignored. */
export function setDefaultPage(page: unknown): void {
  if (page !== 'recommend' && page !== 'discover') return;
  document.cookie = `${HOME_COOKIE}=${page}; path=/; max-age=31536000; samesite=lax`;
  document.getElementById('site-logo')?.setAttribute('href', homeHref(page));
}
