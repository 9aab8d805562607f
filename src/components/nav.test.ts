import { describe, expect, it } from 'vitest';
import { activeEntry, activeTab, NAV, NAV_DIVIDER_AFTER, PHONE_SECTIONS, TABS } from './nav.ts';
import { t } from '../i18n/t.ts';

describe('side navigation', () => {
  it('has the 16 entries in order with the divider after 我的', () => {
    expect(NAV.map((e) => t(e.key)).join(' ')).toBe(
      '首页 推荐 关注 朋友 我的 直播 放映厅 知识 热点 游戏 娱乐 二次元 音乐 美食 体育 时尚',
    );
    expect(t(NAV[NAV_DIVIDER_AFTER]!.key)).toBe('我的');
  });
  it('activates the entry that follows the path', () => {
    expect(activeEntry('/')?.key).toBe('nav.recommend');
    expect(activeEntry('/discover')?.key).toBe('nav.discover');
    expect(activeEntry('/user/self')?.key).toBe('nav.mine');
    expect(activeEntry('/channel/300204')?.key).toBe('nav.food');
    expect(activeEntry('/hot/')?.key).toBe('nav.hot');
    expect(activeEntry('/video/12')).toBeUndefined();
    expect(activeEntry('/user/abc')).toBeUndefined();
  });
});

describe('phone navigation', () => {
  it('has the five tabs and a strip of the sections they leave out', () => {
    expect(TABS.map((e) => t(e.key)).join(' ')).toBe('首页 朋友 投稿 消息 我');
    expect(PHONE_SECTIONS.map((e) => t(e.key)).join(' ')).toBe(
      '推荐 精选 关注 直播 放映厅 知识 热点 游戏 娱乐 二次元 音乐 美食 体育 时尚',
    );
    expect(PHONE_SECTIONS.find((e) => e.key === 'phone.discover')?.href).toBe('/discover');
  });
  it.each([
    ['/', { id: 'home', current: 'page' }],
    ['/discover', { id: 'home', current: 'true' }],
    ['/live/3', { id: 'home', current: 'true' }],
    ['/channel/300204', { id: 'home', current: 'true' }],
    ['/friend/', { id: 'friend', current: 'page' }],
    ['/post', { id: 'post', current: 'page' }],
    ['/post/manage', { id: 'post', current: 'true' }],
    ['/user/self', { id: 'me', current: 'page' }],
    ['/user/abc', undefined],
    ['/video/12', undefined],
    ['/settings', undefined],
  ])('marks the tab of %s', (path, expected) => {
    expect(activeTab(path)).toEqual(expected);
  });
});
