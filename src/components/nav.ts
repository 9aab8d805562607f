import type { MessageKey } from '../i18n/zh-CN.ts';

export interface NavEntry {
  key: MessageKey;
  href: string;
  icon: string;
  /** Path prefix that makes this entry the active one. */
  match: string;
}

/** The 16 side-navigation entries of ui-text.md, in order; a divider follows 我的 (index 4). */
export const NAV: NavEntry[] = [
  { key: 'nav.discover', href: '/discover', icon: 'i-ri-home-5-line', match: '/discover' },
  { key: 'nav.recommend', href: '/', icon: 'i-ri-fire-line', match: '/' },
  { key: 'nav.follow', href: '/follow', icon: 'i-ri-user-heart-line', match: '/follow' },
  { key: 'nav.friend', href: '/friend', icon: 'i-ri-group-line', match: '/friend' },
  { key: 'nav.mine', href: '/user/self?showTab=like', icon: 'i-ri-user-3-line', match: '/user/self' },
  { key: 'nav.live', href: '/live', icon: 'i-ri-live-line', match: '/live' },
  { key: 'nav.vs', href: '/vs', icon: 'i-ri-movie-2-line', match: '/vs' },
  { key: 'nav.knowledge', href: '/channel/300203', icon: 'i-ri-lightbulb-line', match: '/channel/300203' },
  { key: 'nav.hot', href: '/hot', icon: 'i-ri-bar-chart-box-line', match: '/hot' },
  { key: 'nav.game', href: '/channel/300205', icon: 'i-ri-gamepad-line', match: '/channel/300205' },
  { key: 'nav.entertainment', href: '/channel/300201', icon: 'i-ri-emotion-laugh-line', match: '/channel/300201' },
  { key: 'nav.anime', href: '/channel/300206', icon: 'i-ri-ghost-smile-line', match: '/channel/300206' },
  { key: 'nav.music', href: '/channel/300209', icon: 'i-ri-music-2-line', match: '/channel/300209' },
  { key: 'nav.food', href: '/channel/300204', icon: 'i-ri-restaurant-line', match: '/channel/300204' },
  { key: 'nav.sports', href: '/channel/300207', icon: 'i-ri-basketball-line', match: '/channel/300207' },
  { key: 'nav.fashion', href: '/channel/300208', icon: 'i-ri-t-shirt-2-line', match: '/channel/300208' },
];

/** Index after which the divider stands (我的). */
export const NAV_DIVIDER_AFTER = 4;

/** The entry that the current path makes active, if any. */
export function activeEntry(pathname: string): NavEntry | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return NAV.find((e) => (e.match === '/' ? path === '/' : path === e.match || path.startsWith(`${e.match}/`)));
}
