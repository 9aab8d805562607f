import { describe, expect, it } from 'vitest';
import { isPersonalPage } from './personal-pages.ts';

describe('isPersonalPage', () => {
  it.each(['/user/self', '/follow', '/friend', '/post', '/post/manage', '/settings', '/passport/qr', '/search/音乐'])(
    '%s is about the viewer',
    (path) => expect(isPersonalPage(path)).toBe(true),
  );

  it.each([
    '/',
    '/discover',
    '/video/1',
    '/channel/300201',
    '/user/MS4wabc',
    '/live/3',
    '/vs/2',
    '/hot',
    '/search',
    '/followers',
    '/postcard',
    '/chrome/parts',
  ])('%s shows public content', (path) => expect(isPersonalPage(path)).toBe(false));
});
