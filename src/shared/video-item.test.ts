import { describe, expect, it } from 'vitest';
import { testAweme } from '../../tests/unit/aweme.ts';
import { fromAweme, fromVideoB } from './video-item.ts';

const item = {
  id: '42',
  desc: '今天的美食探店 #美食',
  src: '/media/clips/c01.mp4',
  poster: '/media/posters/c01.webp',
  duration: 8000,
  createdAt: 1_700_000_000_000,
  author: { secUid: 'MS4wA', nickname: '跑步的大叔', avatar: '/media/avatars/a.webp', follow: 2 },
  digg: 10,
  comment: 3,
  collect: 2,
  share: 1,
  liked: true,
  collected: false,
};

describe('videos as the browser holds them', () => {
  it('maps a Family A aweme and a Family B video to the same item', () => {
    expect(fromAweme(testAweme())).toEqual(item);
    const b = {
      id: 42,
      desc: item.desc,
      cover: item.poster,
      playUrl: item.src,
      duration: 8000,
      width: 540,
      height: 960,
      createTime: 1_700_000_000_000,
      channelId: 300201,
      diggCount: 10,
      commentCount: 3,
      collectCount: 2,
      shareCount: 1,
      playCount: 99,
      isLiked: true,
      isCollected: false,
      author: { id: 5, secUid: 'MS4wA', nickname: '跑步的大叔', avatar: '/media/avatars/a.webp' },
    };
    // Family B does not say whether the viewer follows the author.
    expect(fromVideoB(b)).toEqual({ ...item, author: { ...item.author, follow: 0 } });
  });

  it('reads a missing address as empty rather than failing', () => {
    const bare = testAweme({ video: { play_addr: { url_list: [] }, bit_rate: [], cover: { url_list: [] }, duration: 1, width: 1, height: 1 } });
    expect(fromAweme(bare)).toMatchObject({ src: '', poster: '' });
  });
});
