/** 屏蔽设置, Family B: a member's muted keywords, authors (不看TA的作品) and hashtags (services/mutes.ts). */
import { z } from 'zod';
import {
  addMute,
  listMutes,
  muteView,
  MUTE_HASHTAG_MAX,
  MUTE_KEYWORD_MAX,
  MUTE_KEYWORDS_MAX,
  removeMute,
  type MuteEntry,
} from '../../services/mutes.ts';
import { MUTE_KINDS } from '../../../shared/mutes.ts';
import { ApiError, okB } from '../envelope.ts';
import { id, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';
import { userIdOf } from '../user-ref.ts';

const entry = z.object({
  id: z.number().int(),
  kind: z.enum(MUTE_KINDS),
  value: z.string().describe('The keyword, the hashtag’s name (without #), or the author’s user id'),
  user: z
    .object({ uid: z.string(), secUid: z.string(), nickname: z.string(), avatar: z.string() })
    .nullable()
    .describe('The muted author; null for keywords and hashtags'),
  createTime: z.number().int().describe('When it was muted, in seconds'),
});

const shapeEntry = (m: MuteEntry): z.input<typeof entry> => muteView(m);

/** What a mute names: a keyword or hashtag by `value`, an author by sec_user_id or user_id. */
const target = {
  kind: z.enum(MUTE_KINDS),
  // The service counts characters and names the cap; the door only stops what could never be one.
  value: z.string().max(200).optional(),
  sec_user_id: secUid().optional(),
  user_id: id().optional(),
};

async function named(input: {
  kind: (typeof MUTE_KINDS)[number];
  value?: string;
  sec_user_id?: string;
  user_id?: number;
}): Promise<{ kind: 'keyword' | 'hashtag'; value: string } | { kind: 'author'; authorId: number }> {
  if (input.kind === 'author') {
    if (input.sec_user_id === undefined && input.user_id === undefined)
      throw new ApiError(400, 'error.muteAuthorMissing');
    return { kind: 'author', authorId: await userIdOf(input) };
  }
  return { kind: input.kind, value: input.value ?? '' };
}

export const muteRoutes = [
  route({
    method: 'GET',
    path: '/user/mutes',
    family: 'B',
    auth: true,
    summary: `The viewer’s mutes (屏蔽), newest first: keywords (at most ${MUTE_KEYWORDS_MAX}, ${MUTE_KEYWORD_MAX} characters each), authors and hashtags`,
    input: z.object({}),
    response: bodyB(
      z.object({
        items: z.array(entry),
        limits: z.object({
          keywords: z.number().int(),
          keywordLength: z.number().int(),
          hashtagLength: z.number().int(),
        }),
      }),
    ),
    handler: async ({ viewer }) =>
      okB({
        items: (await listMutes(viewer.id)).map(shapeEntry),
        limits: { keywords: MUTE_KEYWORDS_MAX, keywordLength: MUTE_KEYWORD_MAX, hashtagLength: MUTE_HASHTAG_MAX },
      }),
  }),
  route({
    method: 'POST',
    path: '/user/mutes/add',
    family: 'B',
    auth: true,
    ownOnly: true,
    summary: `Mute a keyword or hashtag (value) or an author (sec_user_id or user_id; 不看TA的作品); keywords: at most ${MUTE_KEYWORDS_MAX}, ${MUTE_KEYWORD_MAX} characters each, no control characters; muting again answers the entry as it is`,
    input: z.object(target),
    response: bodyB(entry),
    handler: async ({ input, viewer }) => okB(shapeEntry(await addMute(viewer.id, await named(input)))),
  }),
  route({
    method: 'POST',
    path: '/user/mutes/remove',
    family: 'B',
    auth: true,
    ownOnly: true,
    summary:
      'Take a mute back (撤销, 移除): by its id, or by what it names as /user/mutes/add does; nothing muted is no error',
    input: z.object({ id: id().optional(), ...target, kind: target.kind.optional() }),
    response: bodyB(z.object({ removed: z.boolean() })),
    handler: async ({ input, viewer }) => {
      if (input.id !== undefined) await removeMute(viewer.id, { id: input.id });
      else if (input.kind !== undefined) await removeMute(viewer.id, await named({ ...input, kind: input.kind }));
      else throw new ApiError(400, 'error.muteEmpty');
      return okB({ removed: true });
    },
  }),
];
