/** Resolving @nicknames of comment text to users, so clients can link mentions to profiles. */
import { z } from 'zod';
import { usersByNickname } from '../../services/mention-links.ts';
import { okA } from '../envelope.ts';
import { route } from '../registry.ts';
import { bodyA } from '../schemas.ts';

/** At most this many names per call (a page of comments rarely mentions more). */
const MAX_NAMES = 50;

// A mention never holds whitespace or '@' (services/mentions.ts), so a space separates names unambiguously.
const nicknames = z
  .string()
  .max(MAX_NAMES * 21 * 2)
  .transform((s) => [...new Set(s.split(/\s+/).filter(Boolean))])
  .pipe(z.array(z.string().regex(/^[^\s@]+$/).refine((n) => [...n].length <= 20, { message: 'too_long' })).min(1).max(MAX_NAMES));

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
