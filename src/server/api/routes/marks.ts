/**
 * The viewer's marks on a shared page (services/marks.ts): one call made right after first paint. Private to the
 * viewer and revalidated every time (`private, no-cache` with a strong ETag): a browser or a proxy never keeps one
 * member's answer for another, and an unchanged answer costs a 304.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MARKS_MAX_USERS, MARKS_MAX_VIDEOS, viewerMarks } from '../../services/marks.ts';
import { mediaUrl } from '../../media-url.ts';
import { noteVisitBySecUid } from '../../services/profile-visits.ts';
import { SEC_UID, SEC_UID_MAX } from '../../../shared/user-id.ts';
import { JSON_HEADERS, okB } from '../envelope.ts';
import { id, idList, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';

/** A comma-separated list of sec_uids. */
const secUidList = () =>
  z
    .string()
    // Each sec_uid and its comma.
    .max(MARKS_MAX_USERS * (SEC_UID_MAX + 1))
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(SEC_UID)).max(MARKS_MAX_USERS));

const status = z.union([z.literal(1), z.literal(2)]);
const marksData = z.object({
  viewer: z
    .object({ uid: z.string(), secUid: z.string(), nickname: z.string(), avatar: z.string() })
    .nullable()
    .describe('Who the session belongs to; null when the request carries no valid session'),
  liked: z.array(z.string()).describe('Ids among `videos` the viewer liked'),
  collected: z.array(z.string()).describe('Ids among `videos` the viewer collected'),
  later: z.array(z.string()).describe('Ids among `videos` in the viewer’s 稍后再看'),
  following: z.record(z.string(), status).describe('sec_uids among `users` the viewer follows: 1, or 2 when mutual'),
  unread: z.object({ notice: z.number().int(), message: z.number().int() }),
  resume: z
    .object({ episode: z.number().int(), progressMs: z.number().int() })
    .nullable()
    .describe('Where the viewer stopped in `series` (1-based episode, ms into it); null when not started or not asked'),
  mutes: z
    .object({ keywords: z.array(z.string()), authors: z.array(z.string()), hashtags: z.array(z.string()) })
    .describe('What the viewer muted (屏蔽): keywords, authors by sec_uid, hashtag names'),
});
const notModified = z.custom<Response>((v) => v instanceof Response).describe('304 when If-None-Match names it');

const PRIVATE_HEADERS = { 'cache-control': 'private, no-cache', vary: 'Cookie, Token' };

export const marksRoutes = [
  route({
    method: 'GET',
    path: '/user/marks',
    family: 'B',
    auth: false,
    summary:
      'The viewer’s own state on a page every viewer shares: who they are, which of `videos` they liked, collected or keep for later, which of `users` (sec_uids) they follow, their unread counts and where they stopped in `series`; private, revalidated by ETag',
    input: z.object({
      videos: idList().optional(),
      users: secUidList().optional(),
      series: id().optional(),
      /** The profile the page shows: a member's visit is kept for 观看历史 → 用户. */
      visit: secUid().optional(),
    }),
    response: z.union([bodyB(marksData), notModified]),
    handler: async ({ input, viewer, request, headers }) => {
      const videos = (input.videos ?? []).slice(0, MARKS_MAX_VIDEOS);
      const [marks] = await Promise.all([
        viewer ? viewerMarks(viewer, videos, input.users ?? [], input.series) : null,
        viewer && input.visit ? noteVisitBySecUid(viewer.id, input.visit) : null,
      ]);
      const body = okB({
        viewer: marks && {
          uid: String(marks.viewer.id),
          secUid: marks.viewer.secUid,
          nickname: marks.viewer.nickname,
          avatar: mediaUrl(marks.viewer.avatar),
        },
        liked: (marks?.liked ?? []).map(String),
        collected: (marks?.collected ?? []).map(String),
        later: (marks?.later ?? []).map(String),
        following: marks?.following ?? {},
        unread: marks?.unread ?? { notice: 0, message: 0 },
        resume: marks?.resume ? { episode: marks.resume.episode, progressMs: marks.resume.progressMs } : null,
        mutes: marks?.mutes ?? { keywords: [], authors: [], hashtags: [] },
      });
      const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
      for (const [name, value] of Object.entries({ ...PRIVATE_HEADERS, etag })) headers.set(name, value);
      if (request.headers.get('if-none-match') === etag) {
        return new Response(null, { status: 304, headers: { ...JSON_HEADERS, ...PRIVATE_HEADERS, etag } });
      }
      return body;
    },
  }),
];
