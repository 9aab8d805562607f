import type { MessageKey } from '../i18n/zh-CN.ts';
import {
  riBarChartBoxLine,
  riBasketballLine,
  riEmotionLaughLine,
  riFireLine,
  riGamepadLine,
  riGhostSmileLine,
  riGroupLine,
  riHome5Line,
  riLightbulbLine,
  riLiveLine,
  riMovie2Line,
  riMusic2Line,
  riRestaurantLine,
  riTShirt2Line,
  riUser3Line,
  riUserHeartLine,
} from '../shared/icons.ts';

export interface NavEntry {
  key: MessageKey;
  href: string;
  icon: string;
  /** Path prefix that makes this entry the active one. */
  match: string;
}

/** The 16 side-navigation entries, in order; a divider follows 我的 (index 4). */
export const NAV: NavEntry[] = [
  { key: 'nav.discover', href: '/discover', icon: riHome5Line, match: '/discover' },
  { key: 'nav.recommend', href: '/', icon: riFireLine, match: '/' },
  { key: 'nav.follow', href: '/follow', icon: riUserHeartLine, match: '/follow' },
  { key: 'nav.friend', href: '/friend', icon: riGroupLine, match: '/friend' },
  { key: 'nav.mine', href: '/user/self?showTab=like', icon: riUser3Line, match: '/user/self' },
  { key: 'nav.live', href: '/live', icon: riLiveLine, match: '/live' },
  { key: 'nav.vs', href: '/vs', icon: riMovie2Line, match: '/vs' },
  { key: 'nav.knowledge', href: '/channel/300203', icon: riLightbulbLine, match: '/channel/300203' },
  { key: 'nav.hot', href: '/hot', icon: riBarChartBoxLine, match: '/hot' },
  { key: 'nav.game', href: '/channel/300205', icon: riGamepadLine, match: '/channel/300205' },
  { key: 'nav.entertainment', href: '/channel/300201', icon: riEmotionLaughLine, match: '/channel/300201' },
  { key: 'nav.anime', href: '/channel/300206', icon: riGhostSmileLine, match: '/channel/300206' },
  { key: 'nav.music', href: '/channel/300209', icon: riMusic2Line, match: '/channel/300209' },
  { key: 'nav.food', href: '/channel/300204', icon: riRestaurantLine, match: '/channel/300204' },
  { key: 'nav.sports', href: '/channel/300207', icon: riBasketballLine, match: '/channel/300207' },
  { key: 'nav.fashion', href: '/channel/300208', icon: riTShirt2Line, match: '/channel/300208' },
];

/** Index after which the divider stands (我的). */
export const NAV_DIVIDER_AFTER = 4;

/** The entry that the current path makes active, if any. */
export function activeEntry(pathname: string): NavEntry | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return NAV.find((e) => (e.match === '/' ? path === '/' : path === e.match || path.startsWith(`${e.match}/`)));
}
