import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import {
  canSeeWork,
  PROFILE_TABS,
  readPrivacy,
  tabFromQuery,
  tabRefusal,
  visibleTabs,
  visibleWorks,
  type ProfileTab,
  type TabOwner,
} from './visibility.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

const OWNER = 7;
const OTHER = 8;
const owner = (likesPublic: boolean, collectsPublic: boolean): TabOwner => ({
  id: OWNER,
  privacy: { likesPublic, collectsPublic },
});

const ALL = [...PROFILE_TABS];
/** Every viewer against every privacy setting, with the tabs the page shows and the API opens. */
const CASES: {
  who: string;
  viewer: number | null;
  likesPublic: boolean;
  collectsPublic: boolean;
  tabs: ProfileTab[];
}[] = [
  { who: 'the owner', viewer: OWNER, likesPublic: false, collectsPublic: false, tabs: ALL },
  { who: 'the owner', viewer: OWNER, likesPublic: true, collectsPublic: false, tabs: ALL },
  { who: 'the owner', viewer: OWNER, likesPublic: false, collectsPublic: true, tabs: ALL },
  { who: 'the owner', viewer: OWNER, likesPublic: true, collectsPublic: true, tabs: ALL },
  { who: 'another user', viewer: OTHER, likesPublic: false, collectsPublic: false, tabs: ['post'] },
  { who: 'another user', viewer: OTHER, likesPublic: true, collectsPublic: false, tabs: ['post', 'like'] },
  {
    who: 'another user',
    viewer: OTHER,
    likesPublic: false,
    collectsPublic: true,
    tabs: ['post', 'favorite_collection'],
  },
  {
    who: 'another user',
    viewer: OTHER,
    likesPublic: true,
    collectsPublic: true,
    tabs: ['post', 'like', 'favorite_collection'],
  },
  { who: 'an anonymous visitor', viewer: null, likesPublic: false, collectsPublic: false, tabs: ['post'] },
  { who: 'an anonymous visitor', viewer: null, likesPublic: true, collectsPublic: false, tabs: ['post', 'like'] },
  {
    who: 'an anonymous visitor',
    viewer: null,
    likesPublic: false,
    collectsPublic: true,
    tabs: ['post', 'favorite_collection'],
  },
  {
    who: 'an anonymous visitor',
    viewer: null,
    likesPublic: true,
    collectsPublic: true,
    tabs: ['post', 'like', 'favorite_collection'],
  },
];

describe.each(CASES)(
  '$who, likesPublic $likesPublic, collectsPublic $collectsPublic',
  ({ viewer, likesPublic, collectsPublic, tabs: expected }) => {
    const profile = owner(likesPublic, collectsPublic);

    it(`sees ${expected.join(', ')}`, () => {
      expect(visibleTabs(viewer, profile)).toEqual(expected);
    });

    it('is refused every other tab, and a ?showTab= address for one opens 作品', () => {
      for (const tab of PROFILE_TABS) {
        const shown = expected.includes(tab);
        expect(tabRefusal(viewer, profile, tab) === null, tab).toBe(shown);
        expect(tabFromQuery(visibleTabs(viewer, profile), tab)).toBe(shown ? tab : 'post');
      }
    });
  },
);

describe('tab refusals', () => {
  it.each([
    ['like', OTHER, 'forbidden', 'error.likesPrivate'],
    ['favorite_collection', OTHER, 'forbidden', 'error.collectsPrivate'],
    ['record', OTHER, 'forbidden', 'error.privateTab'],
    ['watch_later', OTHER, 'forbidden', 'error.privateTab'],
    ['like', null, 'forbidden', 'error.likesPrivate'],
    ['record', null, 'unauthorized', 'error.unauthorized'],
    ['watch_later', null, 'unauthorized', 'error.unauthorized'],
  ] as const)('%s asked by %s is %s with %s', (tab, viewer, kind, key) => {
    expect(tabRefusal(viewer, owner(false, false), tab)).toMatchObject({ kind, key });
  });

  it('reads an absent flag as public, as the settings service stores them', () => {
    expect(readPrivacy({})).toEqual({ likesPublic: true, collectsPublic: true });
    expect(visibleTabs(OTHER, { id: OWNER, privacy: { likesPublic: false } })).toEqual(['post', 'favorite_collection']);
  });

  it("treats 'posts' as 作品 and anything unknown as 作品", () => {
    expect(tabFromQuery(PROFILE_TABS, 'posts')).toBe('post');
    expect(tabFromQuery(PROFILE_TABS, 'secret')).toBe('post');
    expect(tabFromQuery(PROFILE_TABS, null)).toBe('post');
  });
});

describe('works', () => {
  type Who = 'author' | 'friend' | 'fan' | 'stranger' | 'nobody';
  // A friend follows the author and is followed back; a fan only follows.
  const SEES: Record<'public' | 'friends' | 'private', Who[]> = {
    public: ['author', 'friend', 'fan', 'stranger', 'nobody'],
    friends: ['author', 'friend'],
    private: ['author'],
  };
  const CASES_WORK = (['public', 'friends', 'private'] as const).flatMap((visibility) =>
    (['published', 'processing'] as const).flatMap((status) =>
      [null, new Date()].map((deletedAt) => ({ visibility, status, deletedAt })),
    ),
  );

  it.each(CASES_WORK)(
    '$visibility, $status, deleted $deletedAt: canSeeWork and the SQL rule agree for every viewer',
    async ({ visibility, status, deletedAt }) => {
      const [row] = await db
        .select({ id: videos.id, authorId: videos.authorId })
        .from(videos)
        .where(sql`${videos.deletedAt} is null`)
        .limit(1);
      const author = row!.authorId;
      const [friend, fan, stranger] = [author + 1, author + 2, author + 3];
      await db.execute(sql`delete from follows where (follower_id = ${author} and followee_id in (${friend}, ${fan}, ${stranger}))
      or (followee_id = ${author} and follower_id in (${friend}, ${fan}, ${stranger}))`);
      await db.execute(
        sql`insert into follows (follower_id, followee_id) values (${friend}, ${author}), (${author}, ${friend}), (${fan}, ${author})`,
      );
      await db.update(videos).set({ deletedAt, status, visibility }).where(eq(videos.id, row!.id));
      const viewers: [Who, number | null, boolean][] = [
        ['author', author, false],
        ['friend', friend, true],
        ['fan', fan, false],
        ['stranger', stranger, false],
        ['nobody', null, false],
      ];
      for (const [who, viewer, mutual] of viewers) {
        const expected = deletedAt === null && status === 'published' && SEES[visibility].includes(who);
        expect(canSeeWork(viewer, { authorId: author, deletedAt, status, visibility }, mutual), who).toBe(expected);
        const found = await db
          .select({ id: videos.id })
          .from(videos)
          .where(sql`${videos.id} = ${row!.id} and ${visibleWorks(viewer)}`);
        expect(found.length === 1, who).toBe(expected);
      }
      await db
        .update(videos)
        .set({ deletedAt: null, status: 'published', visibility: 'public' })
        .where(eq(videos.id, row!.id));
    },
  );
});
