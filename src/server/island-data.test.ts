import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAweme, testCard } from '../../tests/unit/aweme.ts';
import { useFreshDb } from '../../tests/setup/test-db.ts';
import { fromAweme } from '../shared/video-item.ts';
import type { Db } from './db/client.ts';
import { likes, users, videoRenditions, videos } from './db/schema.ts';
import { loadVideoItem, loadVideoItems, toCardData, toVideoItem } from './island-data.ts';
import { byIds } from './services/videos.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

const card = testCard();

describe('videos as the islands get them from a page', () => {
  it('a page card becomes the same item the API’s aweme does', () => {
    expect(toVideoItem(card, { liked: true, follow: 2 })).toEqual(fromAweme(testAweme()));
  });

  it('a card with a ladder carries every rendition, highest first, with its URL', () => {
    const step = (gear: 540 | 720, bitRate: number) => ({
      gear,
      width: gear,
      height: (gear * 16) / 9,
      bitRate,
      path: `works/9/${gear}.mp4`,
      sizeBytes: 1,
    });
    expect(toVideoItem(card, {}, [step(720, 2_000_000), step(540, 900_000)]).renditions).toEqual([
      { gear: 720, width: 720, height: 1280, bitRate: 2_000_000, url: '/media/works/9/720.mp4' },
      { gear: 540, width: 540, height: 960, bitRate: 900_000, url: '/media/works/9/540.mp4' },
    ]);
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

describe('videos loaded for a page', () => {
  it('load the renditions of each video and the viewer’s marks, as the API’s awemes carry them', async () => {
    const [liked] = await db.select({ videoId: likes.targetId, userId: likes.userId }).from(likes).limit(1);
    const [viewer] = await db
      .select({ id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar })
      .from(users)
      .where(eq(users.id, liked!.userId));
    const [other] = await db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`${videos.id} <> ${liked!.videoId} and ${videos.deletedAt} is null and ${videos.media} <> ''`)
      .limit(1);
    const ladder = ([1080, 720, 540] as const).map((gear) => ({
      videoId: liked!.videoId,
      gear,
      width: gear,
      height: (gear * 16) / 9,
      bitRate: gear * 4000,
      path: `works/x/${gear}.mp4`,
      sizeBytes: gear * 1000,
    }));
    await db.insert(videoRenditions).values(ladder);
    // A studio work's media lives under works/, which is what tells the loader there is a ladder to look up.
    await db.update(videos).set({ media: 'works/x/720.mp4' }).where(eq(videos.id, liked!.videoId));
    const cards = await byIds([liked!.videoId, other!.id], null);

    const items = await loadVideoItems(viewer!, cards);
    const first = items.find((i) => i.id === String(liked!.videoId))!;
    const second = items.find((i) => i.id === String(other!.id))!;
    expect(first.liked).toBe(true);
    expect(first.renditions.map((r) => [r.gear, r.url, r.bitRate])).toEqual([
      [1080, '/media/works/x/1080.mp4', 4_320_000],
      [720, '/media/works/x/720.mp4', 2_880_000],
      [540, '/media/works/x/540.mp4', 2_160_000],
    ]);
    // A seeded clip answers its one file, with the bit rate of its size over its length.
    expect(second.renditions).toHaveLength(1);
    expect(second.renditions[0]).toMatchObject({ url: second.src });
    expect(second.renditions[0]!.bitRate).toBeGreaterThan(0);

    const card = cards.find((c) => c.id === liked!.videoId)!;
    expect(await loadVideoItem(card, { liked: true })).toEqual({ ...first, author: { ...first.author, follow: 0 } });
    expect((await loadVideoItems(null, cards)).map((i) => i.liked)).toEqual([false, false]);
  });
});
