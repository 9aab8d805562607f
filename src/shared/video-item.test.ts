import { describe, expect, it } from 'vitest';
import { testAweme } from '../../tests/unit/aweme.ts';
import { fromAweme, fromVideoB, gearOfName } from './video-item.ts';

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
  renditions: [{ gear: 540, width: 540, height: 960, bitRate: 400_000, url: '/media/clips/c01.mp4' }],
  captions: null,
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
    // Family B says nothing of the viewer's follow nor of renditions.
    expect(fromVideoB(b)).toEqual({ ...item, author: { ...item.author, follow: 0 }, renditions: [] });
  });

  it('carries every rendition of bit_rate[], highest first, leaving out those it cannot play', () => {
    const entry = (gear_name: string, url: string, width: number, height: number, bit_rate: number) => ({
      gear_name,
      bit_rate,
      is_h265: 0 as const,
      format: 'mp4' as const,
      play_addr: { uri: url, url_list: url ? [url] : [], width, height, data_size: 1 },
    });
    const a = testAweme();
    const ladder = testAweme({
      video: {
        ...a.video,
        bit_rate: [
          entry('normal_540_0', '/m/540.mp4', 540, 960, 1_100_000),
          entry('normal_1080_0', '/m/1080.mp4', 1080, 1920, 4_800_000),
          entry('normal_720_0', '/m/720.mp4', 720, 1280, 2_300_000),
          entry('normal_4k_0', '/m/4k.mp4', 2160, 3840, 20_000_000),
          entry('normal_480_0', '/m/480.mp4', 480, 854, 800_000),
          entry('normal_720_1', '', 720, 1280, 2_000_000),
        ],
      },
    });
    expect(fromAweme(ladder).renditions).toEqual([
      { gear: 1080, width: 1080, height: 1920, bitRate: 4_800_000, url: '/m/1080.mp4' },
      { gear: 720, width: 720, height: 1280, bitRate: 2_300_000, url: '/m/720.mp4' },
      { gear: 540, width: 540, height: 960, bitRate: 1_100_000, url: '/m/540.mp4' },
    ]);
  });

  it.each([
    ['normal_1080_0', 1080],
    ['normal_720_0', 720],
    ['lowest_540_1', 540],
    ['normal_480_0', null],
    ['adapt_lowest', null],
    ['', null],
  ])('reads the gear of %j as %j', (name, gear) => {
    expect(gearOfName(name)).toBe(gear);
  });

  it('reads a missing address as empty rather than failing', () => {
    const a = testAweme();
    const empty = { uri: '', url_list: [], width: 1, height: 1 };
    const bare = testAweme({
      video: { ...a.video, play_addr: { ...empty, data_size: 0 }, bit_rate: [], cover: empty },
    });
    expect(fromAweme(bare)).toMatchObject({ src: '', poster: '' });
  });
});
