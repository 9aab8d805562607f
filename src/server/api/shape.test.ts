import { describe, expect, it } from 'vitest';
import { testAweme, testCard, testUser } from '../../../tests/unit/aweme.ts';
import { aweme as awemeSchema, comment as commentSchema, user as userSchema } from '../../shared/api-shapes.ts';
import type { CommentView } from '../services/comments.ts';
import { aweme, comment, textExtra, user } from './shape.ts';

const liked = {
  liked: new Set([42]),
  collected: new Set<number>(),
  relations: new Map([[5, { following: true, followedBy: true }]]),
};
const mentioned = new Map([
  ['小美', { id: 7, secUid: 'sec-7', nickname: '小美' }],
  ['a#b', { id: 8, secUid: 'sec-8', nickname: 'a#b' }],
]);

describe('aweme', () => {
  it('is the fixture the browser tests read, and its schema takes it', () => {
    const a = aweme(testCard(), liked, 'http://shanying.test');
    expect(a).toEqual(testAweme());
    expect(awemeSchema.parse(a)).toEqual(a);
  });

  it('says who may see and share it, and the quality of its short side', () => {
    const card = { ...testCard(), visibility: 'friends' as const, allowComments: false, width: 1080, height: 1920 };
    const a = aweme(card, liked, 'https://sy.example');
    expect(a.status).toMatchObject({ private_status: 2, part_see: 1, allow_share: true });
    expect(a.aweme_control).toMatchObject({ can_comment: false, can_share: true });
    expect(a.video.ratio).toBe('1080p');
    expect(a.share_url).toBe('https://sy.example/video/42');
    const own = aweme({ ...card, visibility: 'private' }, liked, '');
    expect(own.status).toMatchObject({ private_status: 1, part_see: 0, allow_share: false });
    expect(aweme({ ...card, width: 1280, height: 720 }, liked, '').video.ratio).toBe('720p');
  });
});

describe('user', () => {
  it('carries every field, with an empty IP line while the province is unknown', () => {
    const u = user({ ...testCard().author, ipProvince: '' });
    expect(userSchema.parse(u)).toEqual(u);
    expect(u).toEqual(testUser({ ip_location: '' }));
    expect(user(testCard().author, { following: false, followedBy: true })).toMatchObject({
      follow_status: 0,
      follower_status: 1,
      ip_location: 'IP属地：广东',
    });
  });
});

describe('textExtra', () => {
  it('lists the mentions that name a user and the hashtags, in text order, at UTF-16 offsets', () => {
    const text = '😀@小美 看 #美食 @没这个人 #旅行';
    expect(textExtra(text, mentioned)).toEqual([
      { type: 0, start: 2, end: 5, user_id: '7', sec_uid: 'sec-7' },
      { type: 1, start: 8, end: 11, hashtag_name: '美食' },
      { type: 1, start: 18, end: 21, hashtag_name: '旅行' },
    ]);
    expect(text.slice(2, 5)).toBe('@小美');
  });

  it('takes a # inside a mentioned name as part of the name', () => {
    expect(textExtra('@a#b 好', mentioned)).toEqual([{ type: 0, start: 0, end: 4, user_id: '8', sec_uid: 'sec-8' }]);
  });
});

describe('comment', () => {
  it('carries the commenter as a full user, their IP province and the mentions of its text', () => {
    const view: CommentView = {
      id: 3,
      videoId: 42,
      parentId: null,
      text: '@小美 快来看',
      diggCount: 0,
      replyCount: 2,
      createdAt: new Date(1_700_000_000_000),
      user: testCard().author,
      replyTo: null,
      authorLiked: false,
      isAuthor: true,
    };
    const c = comment(view, false, undefined, mentioned);
    expect(commentSchema.parse(c)).toEqual(c);
    expect(c).toMatchObject({
      ip_label: '广东',
      is_folded: false,
      reply_comment_total: 2,
      text_extra: [{ type: 0, user_id: '7' }],
    });
    expect(c.user).toEqual(user(testCard().author));
  });
});
