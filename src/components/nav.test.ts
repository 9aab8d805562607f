import { describe, expect, it } from 'vitest';
import { activeEntry, NAV, NAV_DIVIDER_AFTER } from './nav.ts';
import { t } from '../i18n/t.ts';

describe('side navigation', () => {
  it('has the 16 entries in order with the divider after 我的', () => {
    expect(NAV.map((e) => t(e.key)).join(' ')).toBe('首页 推荐 关注 朋友 我的 直播 放映厅 知识 热点 游戏 娱乐 二次元 音乐 美食 体育 时尚');
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
