import { describe, expect, it } from 'vitest';
import { writtenPages } from './registry.ts';

describe('writtenPages', () => {
  it('names the page of the video a write is about, by any of the names inputs give its id', () => {
    expect(writtenPages({ aweme_id: 7, type: 1 })).toEqual(['/video/7']);
    expect(writtenPages({ workId: 12, title: 't' })).toEqual(['/video/12']);
    expect(writtenPages({ vid: 3, text: 'x' })).toEqual(['/video/3']);
    expect(writtenPages({ videoId: 4 })).toEqual(['/video/4']);
  });

  it('names nothing for a write about no video, or an id that is not one', () => {
    expect(writtenPages({ cid: 5 })).toEqual([]);
    expect(writtenPages({ user_id: 9, type: 1 })).toEqual([]);
    expect(writtenPages({ aweme_id: '../../hot' })).toEqual([]);
    expect(writtenPages({ aweme_id: 1.5 })).toEqual([]);
    expect(writtenPages(undefined)).toEqual([]);
    expect(writtenPages('aweme_id=7')).toEqual([]);
  });
});
