/** A complete Family A aweme for unit tests of browser modules, with `over` changing what a test is about. */
import type { Aweme } from '../../src/shared/api-shapes.ts';

export function testAweme(over: Partial<Aweme> & { secUid?: string } = {}): Aweme {
  const { secUid = 'MS4wA', ...rest } = over;
  return {
    aweme_id: '42',
    aweme_type: 0,
    desc: '今天的美食探店 #美食',
    create_time: 1_700_000_000,
    text_extra: [{ hashtag_name: '美食', start: 7, end: 10, type: 1 }],
    author: { uid: '5', sec_uid: secUid, nickname: '跑步的大叔', avatar_thumb: { url_list: ['/media/avatars/a.webp'] }, follow_status: 2 },
    statistics: { digg_count: 10, comment_count: 3, collect_count: 2, share_count: 1, play_count: 99 },
    user_digged: 1,
    collect_stat: 0,
    video: {
      play_addr: { url_list: ['/media/clips/c01.mp4'] },
      // A seeded clip: its one file is its ladder.
      bit_rate: [{ gear_name: 'normal_540_0', bit_rate: 400_000, play_addr: { url_list: ['/media/clips/c01.mp4'], width: 540, height: 960, data_size: 400_000 } }],
      cover: { url_list: ['/media/posters/c01.webp'] },
      duration: 8000,
      width: 540,
      height: 960,
    },
    ...rest,
  };
}
