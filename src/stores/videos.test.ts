import { describe, expect, it } from 'vitest';
import { $videos, addTabPage, resetVideos, setTabCounts, setVideosLoading } from './videos.ts';

const v = (id: string) => ({ aweme_id: id });

describe('$videos', () => {
  it('appends pages per tab without duplicates and marks an empty first page', () => {
    resetVideos();
    addTabPage('post', [v('1'), v('2')]);
    addTabPage('post', [v('2'), v('3')]);
    expect($videos.get().userPostVideos.map((x) => x.aweme_id)).toEqual(['1', '2', '3']);
    addTabPage('like', []);
    expect($videos.get().isEmpty).toEqual({ post: false, like: true, collect: false, record: false });
    addTabPage('post', [v('9')], true);
    expect($videos.get().userPostVideos).toEqual([v('9')]);
  });

  it('resets everything (logout)', () => {
    addTabPage('collect', [v('1')]);
    setTabCounts({ postCount: 3, likeCount: 4, collectCount: 5 });
    setVideosLoading(true, true);
    resetVideos();
    expect($videos.get()).toEqual({
      videos: [],
      userPostVideos: [],
      userLikeVideos: [],
      userCollectVideos: [],
      userRecordVideos: [],
      loading: false,
      bottomLoading: false,
      isEmpty: { post: false, like: false, collect: false, record: false },
      postCount: 0,
      likeCount: 0,
      collectCount: 0,
    });
  });
});
