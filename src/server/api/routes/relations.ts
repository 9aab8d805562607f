/** Family A around the viewer's relations: 移除粉丝, the 私信 sidebar's friends (im/spotlight/relation) and whom they may @. */
import { z } from 'zod';
import { MENTION_NAME_MAX } from '../../../shared/mention-text.ts';
import { listFriendUsers, listMentionable } from '../../services/friends.ts';
import { removeFollower } from '../../services/social.ts';
import { okA } from '../envelope.ts';
import { count, cursor, text } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, followUser, nextCursor } from '../schemas.ts';
import { asBit, followUsers } from '../shape.ts';
import { userIdOf, withUserRef } from '../user-ref.ts';

const n = () => z.number().int();

export const relationRoutes = [
  route({
    method: 'POST',
    path: '/aweme/v1/web/user/follower/remove/',
    family: 'A',
    auth: true,
    summary:
      'Remove a follower (移除粉丝) named by sec_user_id or user_id: they no longer follow the viewer; removing someone who does not follow changes nothing',
    input: withUserRef({}),
    response: bodyA({
      follower_status: z.literal(0).describe('The user no longer follows the viewer'),
      follower_count: n(),
    }),
    handler: async ({ input, viewer }) => {
      const r = await removeFollower(viewer.id, await userIdOf(input));
      return okA({ follower_status: 0 as const, follower_count: r.followerCount });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/im/spotlight/relation/',
    family: 'A',
    auth: true,
    summary:
      "The viewer's friends (mutual follows) for the 私信 sidebar and the share panel, latest follow first; cursor is where the next page starts",
    input: z.object({ cursor: cursor(), count: count(50) }),
    response: bodyA({ followings: z.array(followUser), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer }) => {
      const p = await listFriendUsers(viewer.id, { cursor: input.cursor, count: input.count });
      return okA({ followings: await followUsers(viewer, p.items), cursor: p.cursor, has_more: asBit(p.hasMore) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/familiar/atlist/',
    family: 'A',
    auth: true,
    summary:
      'Whom the viewer may @: the users they follow, friends first; keyword keeps nicknames containing it; cursor is where the next page starts',
    input: z.object({ keyword: text(0, MENTION_NAME_MAX).optional(), cursor: cursor(), count: count(20) }),
    response: bodyA({ user_list: z.array(followUser), cursor: nextCursor, has_more: bit }),
    handler: async ({ input, viewer }) => {
      const p = await listMentionable(viewer.id, { cursor: input.cursor, count: input.count }, input.keyword);
      return okA({ user_list: await followUsers(viewer, p.items), cursor: p.cursor, has_more: asBit(p.hasMore) });
    },
  }),
];
