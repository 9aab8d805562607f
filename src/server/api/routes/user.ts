/** Family A users: own and other profiles, following and follower lists, a user's posts, likes and collection (each tab as the visibility policy allows). */
import { z } from 'zod';
import type { Viewer } from '../../services/sessions.ts';
import { noteVisit } from '../../services/profile-visits.ts';
import { listFollowers, listFollowing } from '../../services/social.ts';
import { getById, getBySecUid, type Profile } from '../../services/users.ts';
import { profileTab } from '../../services/videos.ts';
import { assertTabVisible } from '../../services/visibility.ts';
import { NOT_LOGGED_IN } from '../../../shared/status-code.ts';
import { ApiError, notLoggedInA, okA } from '../envelope.ts';
import { count, cursor, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { aweme, bit, bodyA, followUser, nextCursor, profileUser, selfUser } from '../schemas.ts';
import { asBit, awemeList, followUsers, profileUser as shapeUser, selfUser as shapeSelf } from '../shape.ts';

/** The profile named by sec_user_id, else the viewer's own (401 when there is none). */
async function target(sec: string | undefined, viewer: Viewer | null): Promise<Profile> {
  if (sec === undefined) {
    if (!viewer) throw new ApiError(401, 'error.unauthorized');
    const self = await getById(viewer.id, null);
    if (!self) throw new ApiError(401, 'error.unauthorized');
    return self;
  }
  const profile = await getBySecUid(sec, viewer?.id ?? null);
  if (!profile) throw new ApiError(404, 'error.userNotFound');
  return profile;
}

const awemePage = bodyA({
  aweme_list: z.array(aweme),
  max_cursor: nextCursor,
  min_cursor: nextCursor,
  has_more: bit,
});
const postInput = z.object({ sec_user_id: secUid(), max_cursor: cursor(), count: count(18) });

export const userRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/user/profile/self/',
    family: 'A',
    // Not logged in is an answer here, not a 401: douyin.com's client decides its login state by status_code.
    auth: false,
    summary:
      "The viewer's own profile with counts and collect count; without a session HTTP 200 with status_code 8 (not logged in)",
    input: z.object({}),
    response: z.union([
      bodyA({
        user: selfUser,
        user_collect_count: z.object({ collect_count_list: z.array(z.object({ collect_count: z.number().int() })) }),
      }),
      z.object({ status_code: z.literal(NOT_LOGGED_IN), status_msg: z.string() }),
    ]),
    handler: async ({ viewer }) => {
      const self = viewer && (await getById(viewer.id, null));
      if (!self) return notLoggedInA();
      return okA({
        user: shapeSelf(self),
        user_collect_count: { collect_count_list: [{ collect_count: self.collectCount }] },
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/user/profile/other/',
    family: 'A',
    auth: false,
    summary:
      "Another user's profile with the viewer's follow relation; a member's read counts as a visit (观看历史 → 用户)",
    input: z.object({ sec_user_id: secUid() }),
    response: bodyA({ user: profileUser }),
    handler: async ({ input, viewer }) => {
      const profile = await target(input.sec_user_id, viewer);
      if (viewer) await noteVisit(viewer.id, profile.id);
      return okA({ user: shapeUser(profile) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/user/following/list/',
    family: 'A',
    auth: false,
    summary:
      'Users that sec_user_id (default: the viewer) follows, newest first; offset is where the next page starts (a cursor)',
    input: z.object({ sec_user_id: secUid().optional(), offset: cursor(), count: count(20) }),
    response: bodyA({
      followings: z.array(followUser),
      offset: nextCursor,
      has_more: bit,
      total: z.number().int(),
    }),
    handler: async ({ input, viewer }) => {
      const user = await target(input.sec_user_id, viewer);
      const page = await listFollowing(user.id, { cursor: input.offset, count: input.count });
      return okA({
        followings: await followUsers(viewer, page.items),
        offset: page.cursor,
        has_more: asBit(page.hasMore),
        total: user.followingCount,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/user/follower/list/',
    family: 'A',
    auth: false,
    summary:
      'Users who follow sec_user_id (default: the viewer), newest first; offset is where the next page starts (a cursor)',
    input: z.object({ sec_user_id: secUid().optional(), offset: cursor(), count: count(20) }),
    response: bodyA({
      followers: z.array(followUser),
      offset: nextCursor,
      has_more: bit,
      total: z.number().int(),
    }),
    handler: async ({ input, viewer }) => {
      const user = await target(input.sec_user_id, viewer);
      const page = await listFollowers(user.id, { cursor: input.offset, count: input.count });
      return okA({
        followers: await followUsers(viewer, page.items),
        offset: page.cursor,
        has_more: asBit(page.hasMore),
        total: user.followerCount,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/aweme/post/',
    family: 'A',
    auth: false,
    summary: "A user's videos, newest first; max_cursor is where the next page starts",
    input: postInput,
    response: awemePage,
    handler: async ({ input, viewer, request }) => {
      const user = await target(input.sec_user_id, viewer);
      assertTabVisible(viewer?.id ?? null, user, 'post');
      const page = await profileTab(
        user.id,
        'post',
        { cursor: input.max_cursor, count: input.count },
        viewer?.id ?? null,
      );
      return okA({
        aweme_list: await awemeList({ viewer, request }, page.items),
        max_cursor: page.cursor,
        min_cursor: input.max_cursor ?? '0',
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/aweme/favorite/',
    family: 'A',
    auth: false,
    summary: 'Videos a user liked, latest like first (403 with status_code 9 when the user keeps likes private)',
    input: postInput,
    response: awemePage,
    handler: async ({ input, viewer, request }) => {
      const user = await target(input.sec_user_id, viewer);
      assertTabVisible(viewer?.id ?? null, user, 'like');
      const page = await profileTab(
        user.id,
        'like',
        { cursor: input.max_cursor, count: input.count },
        viewer?.id ?? null,
      );
      return okA({
        aweme_list: await awemeList({ viewer, request }, page.items),
        max_cursor: page.cursor,
        min_cursor: input.max_cursor ?? '0',
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/aweme/listcollection/',
    family: 'A',
    auth: false,
    summary:
      'Collected videos (收藏) of sec_user_id (default: the viewer), latest first (403 with status_code 9 when the user keeps them private)',
    input: z.object({ sec_user_id: secUid().optional(), cursor: cursor(), count: count(18) }),
    response: bodyA({ aweme_list: z.array(aweme), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer, request }) => {
      const user = await target(input.sec_user_id, viewer);
      assertTabVisible(viewer?.id ?? null, user, 'favorite_collection');
      const page = await profileTab(
        user.id,
        'favorite_collection',
        { cursor: input.cursor, count: input.count },
        viewer?.id ?? null,
      );
      return okA({
        aweme_list: await awemeList({ viewer, request }, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
      });
    },
  }),
];
