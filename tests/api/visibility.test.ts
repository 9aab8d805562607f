/** Profile tabs through both API families: each opens or refuses exactly as the visibility policy says, in its family's envelope. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_TABS, type ProfileTab } from '../../src/server/services/visibility.ts';
import { call, expectErrorA, expectErrorB, ok, one, tokenFor, useApiDb, type Answer } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

type Who = 'owner' | 'other' | 'anonymous';

let owner: { id: number; sec_uid: string };
let other: { id: number };
const tokens: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  // Someone with likes and collections of live videos, so an opened tab has rows to compare.
  owner = await one(
    ctx,
    sql`
    select u.id, u.sec_uid from users u
    where exists (select 1 from likes l join videos v on v.id = l.video_id where l.user_id = u.id and v.deleted_at is null)
      and exists (select 1 from collects c join videos v on v.id = c.video_id where c.user_id = u.id and v.deleted_at is null)
    order by u.id limit 1`,
  );
  other = await one(ctx, sql`select id from users where id <> ${owner.id} order by id limit 1`);
  tokens.owner = await tokenFor(owner.id);
  tokens.other = await tokenFor(other.id);
});

async function setPrivacy(likesPublic: boolean, collectsPublic: boolean) {
  await ctx.db.execute(
    sql`update users set privacy = ${JSON.stringify({ likesPublic, collectsPublic })}::jsonb where id = ${owner.id}`,
  );
}

async function idsOf(query: ReturnType<typeof sql>): Promise<string[]> {
  return (await ctx.db.execute<{ id: number }>(query)).rows.map((r) => String(r.id)).sort();
}

/** Family A's lists of a profile by sec_user_id (作品, 喜欢, 收藏), and the owner's rows behind each. */
const FAMILY_A = {
  post: {
    path: 'aweme/post/',
    rows: (id: number) => sql`select v.id from videos v where v.author_id = ${id} and v.deleted_at is null`,
  },
  like: {
    path: 'aweme/favorite/',
    rows: (id: number) =>
      sql`select l.video_id as id from likes l join videos v on v.id = l.video_id where l.user_id = ${id} and v.deleted_at is null`,
  },
  favorite_collection: {
    path: 'aweme/listcollection/',
    rows: (id: number) =>
      sql`select c.video_id as id from collects c join videos v on v.id = c.video_id where c.user_id = ${id} and v.deleted_at is null`,
  },
} as const;

const cases = (['owner', 'other', 'anonymous'] as const).flatMap((who) =>
  [false, true].flatMap((likesPublic) => [false, true].map((collectsPublic) => ({ who, likesPublic, collectsPublic }))),
);

describe.each(cases)(
  '$who, likesPublic $likesPublic, collectsPublic $collectsPublic',
  ({ who, likesPublic, collectsPublic }) => {
    const token = () => tokens[who];
    // The owner sees every tab; others 作品, and 喜欢 and 收藏 as the owner allows.
    const shown = (): ProfileTab[] =>
      who === 'owner'
        ? [...PROFILE_TABS]
        : [
            'post',
            ...(likesPublic ? ['like' as const] : []),
            ...(collectsPublic ? ['favorite_collection' as const] : []),
          ];

    beforeAll(() => setPrivacy(likesPublic, collectsPublic));

    it('Family A opens the shown tabs with the owner’s rows and refuses the others with 403, status_code 9', async () => {
      for (const [tab, { path, rows }] of Object.entries(FAMILY_A) as [ProfileTab, (typeof FAMILY_A)['post']][]) {
        const query = { sec_user_id: owner.sec_uid, count: 50 };
        if (!shown().includes(tab)) {
          expectErrorA(await call('GET', `/api${W}/${path}`, { query, token: token() }), 403, 9);
          continue;
        }
        const body = await ok('GET', `${W}/${path}`, { query, token: token() });
        const got: string[] = body.aweme_list.map((a: { aweme_id: string }) => a.aweme_id);
        const owners = await idsOf(rows(owner.id));
        expect(got.length, tab).toBe(Math.min(owners.length, 50));
        for (const id of got) expect(owners, tab).toContain(id);
      }
    });

    it('Family B /video/self opens the shown tabs and refuses the others in {code, msg, data}', async () => {
      for (const showTab of PROFILE_TABS) {
        const res: Answer = await call('GET', '/api/video/self', {
          query: { showTab, userId: owner.id, size: 5 },
          token: token(),
        });
        if (shown().includes(showTab)) {
          expect(res.status, `${showTab}: ${res.text}`).toBe(200);
          expect(['200', '404'], showTab).toContain(res.body.code);
        } else {
          // History and watch later are the owner's alone: asked anonymously that is a 401 (log in first), else a 403.
          expectErrorB(res, who === 'anonymous' && (showTab === 'record' || showTab === 'watch_later') ? 401 : 403);
        }
      }
    });
  },
);

describe('aweme/listcollection/', () => {
  it("answers the viewer's own collection without sec_user_id, another user's with it", async () => {
    await setPrivacy(true, true);
    const own = await ok('GET', `${W}/aweme/listcollection/`, { query: { count: 50 }, token: tokens.other });
    const theirs = await ok('GET', `${W}/aweme/listcollection/`, {
      query: { count: 50, sec_user_id: owner.sec_uid },
      token: tokens.other,
    });
    const ids = (b: { aweme_list: { aweme_id: string }[] }) => b.aweme_list.map((a) => a.aweme_id).sort();
    expect(ids(own)).toEqual(await idsOf(FAMILY_A.favorite_collection.rows(other.id)));
    expect(ids(theirs)).toEqual(await idsOf(FAMILY_A.favorite_collection.rows(owner.id)));
    expect(ids(theirs)).not.toEqual(ids(own));
    expectErrorA(await call('GET', `/api${W}/aweme/listcollection/`), 401, 8);
  });
});
