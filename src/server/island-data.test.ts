import { describe, expect, it } from 'vitest';
import { testAweme } from '../../tests/unit/aweme.ts';
import { fromAweme } from '../shared/video-item.ts';
import { toCardData, toVideoItem } from './island-data.ts';
import type { VideoCard } from './services/video-cards.ts';

const card: VideoCard = {
  id: 42,
  desc: '今天的美食探店 #美食',
  channelId: 300201,
  media: 'clips/c01.mp4',
  poster: 'posters/c01.webp',
  durationMs: 8000,
  width: 540,
  height: 960,
  diggCount: 10,
  commentCount: 3,
  collectCount: 2,
  shareCount: 1,
  playCount: 99,
  createdAt: new Date(1_700_000_000_000),
  author: { id: 5, secUid: 'MS4wA', nickname: '跑步的大叔', avatar: 'avatars/a.webp' },
};

describe('videos as the islands get them from a page', () => {
  it('a page card becomes the same item the API’s aweme does', () => {
    expect(toVideoItem(card, { liked: true, follow: 2 })).toEqual(fromAweme(testAweme()));
  });

  it('a card keeps only what a card shows', () => {
    expect(toCardData(card)).toEqual({
      id: '42',
      desc: card.desc,
      poster: '/media/posters/c01.webp',
      duration: 8000,
      createdAt: 1_700_000_000_000,
      digg: 10,
      author: { secUid: 'MS4wA', nickname: '跑步的大叔' },
    });
  });
});
