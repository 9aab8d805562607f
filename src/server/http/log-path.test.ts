import { describe, expect, it } from 'vitest';
import { logPath } from './log-path.ts';

describe('logPath', () => {
  it.each([
    ['/', '/'],
    ['/video/123', '/video/123'],
    [
      '/user/MS4wLjABAAAAvZTwuta9MD0pddo7o-u_YposuNGHk-w55BV5aKZ1',
      '/user/MS4wLjABAAAAvZTwuta9MD0pddo7o-u_YposuNGHk-w55BV5aKZ1',
    ],
    ['/media/clips/c01.mp4', '/media/clips/c01.mp4'],
    ['/api/aweme/v1/web/tab/feed/', '/api/aweme/v1/web/tab/feed/'],
    ['/search/%E7%BE%8E%E9%A3%9F', '/search/:text'],
    ['/search/plainword', '/search/:text'],
    ['/channel/%3Cscript%3E', '/channel/:text'],
    ['/live/a%00b', '/live/:text'],
  ])('%s → %s', (path, logged) => {
    expect(logPath(path)).toBe(logged);
  });
});
