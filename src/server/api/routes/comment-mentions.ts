/** Resolving @nicknames of comment text to users, so clients can link mentions to profiles. */
import { z } from 'zod';
import { MENTION_NAME, MENTION_NAME_MAX, MENTION_RESOLVE_MAX } from '../../../shared/mention-text.ts';
import { usersByNickname } from '../../services/mention-links.ts';
import { okA } from '../envelope.ts';
import { route } from '../registry.ts';
import { bodyA } from '../schemas.ts';

// A mention never holds whitespace or '@', so a space separates names unambiguously.
const nicknames = z
  .string()
  .max(MENTION_RESOLVE_MAX * (MENTION_NAME_MAX + 1) * 2)
  .transform((s) => [...new Set(s.split(/\s+/).filter(Boolean))])
  .pipe(z.array(z.string().regex(MENTION_NAME)).min(1).max(MENTION_RESOLVE_MAX));

export const commentMentionRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/comment/mention/resolve/',
    family: 'A',
    auth: false,
    summary: 'Users named by @nicknames (space-separated, at most 50); names nobody has are left out',
    input: z.object({ nicknames }),
    response: bodyA({ users: z.array(z.object({ nickname: z.string(), sec_uid: z.string() })) }),
    anonymousCacheMs: 10_000,
    handler: async ({ input }) => {
      const found = await usersByNickname(input.nicknames);
      return okA({ users: found.map((u) => ({ nickname: u.nickname, sec_uid: u.secUid })) });
    },
  }),
];
