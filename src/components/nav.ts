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

/** The phone's top strip of sections (below the tablet breakpoint the sidebar is gone): 朋友 and 我的 are tabs there instead. */
export const PHONE_SECTIONS: NavEntry[] = [
  NAV[1]!,
  // The sidebar's 首页 is the discover page; on a phone 首页 is the tab of the feed, so the strip names it 精选.
  { ...NAV[0]!, key: 'phone.discover' },
  ...NAV.filter((e) => !['nav.discover', 'nav.recommend', 'nav.friend', 'nav.mine'].includes(e.key)),
];

export type TabId = 'home' | 'friend' | 'post' | 'message' | 'me';

export interface TabEntry {
  id: TabId;
  key: MessageKey;
  /** Where the tab leads; 消息 has none: it opens the messages popover. */
  href?: string;
}

/** The phone's bottom tab bar, in order. */
export const TABS: TabEntry[] = [
  { id: 'home', key: 'phone.tab.home', href: '/' },
  { id: 'friend', key: 'nav.friend', href: '/friend' },
  { id: 'post', key: 'header.post', href: '/post' },
  { id: 'message', key: 'phone.tab.message' },
  { id: 'me', key: 'phone.tab.me', href: '/user/self' },
];

/**
 * The tab the path belongs to: `page` on the tab's own page, `true` on a page under it (首页 holds every section of the
 * strip, 投稿 the whole creator centre), none elsewhere (a video, another user's profile).
 */
export function activeTab(pathname: string): { id: TabId; current: 'page' | 'true' } | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { id: 'home', current: 'page' };
  const section = activeEntry(path);
  if (section && PHONE_SECTIONS.some((e) => e.href === section.href)) return { id: 'home', current: 'true' };
  for (const tab of TABS) {
    if (!tab.href || tab.href === '/') continue;
    if (path === tab.href) return { id: tab.id, current: 'page' };
    if (path.startsWith(`${tab.href}/`)) return { id: tab.id, current: 'true' };
  }
  return undefined;
}
