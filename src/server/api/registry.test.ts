import { describe, expect, it } from 'vitest';
import { writtenVideos } from './registry.ts';

describe('writtenVideos', () => {
  it('names the video a write is about, by any of the names inputs give its id', () => {
    expect(writtenVideos({ aweme_id: 7, type: 1 })).toEqual([7]);
    expect(writtenVideos({ workId: 12, title: 't' })).toEqual([12]);
    expect(writtenVideos({ vid: 3, text: 'x' })).toEqual([3]);
    expect(writtenVideos({ videoId: 4 })).toEqual([4]);
  });

  it('names nothing for a write about no video, or an id that is not one', () => {
    expect(writtenVideos({ cid: 5 })).toEqual([]);
    expect(writtenVideos({ user_id: 9, type: 1 })).toEqual([]);
    expect(writtenVideos({ aweme_id: '../../hot' })).toEqual([]);
    expect(writtenVideos({ aweme_id: 1.5 })).toEqual([]);
    expect(writtenVideos(undefined)).toEqual([]);
    expect(writtenVideos('aweme_id=7')).toEqual([]);
    expect(writtenVideos({ aweme_id: '7' })).toEqual([]);
    expect(writtenVideos({ aweme_id: 0 })).toEqual([]);
  });
});
