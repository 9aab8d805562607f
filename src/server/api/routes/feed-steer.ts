/**
 * Steering the recommend feed from a video's 更多 menu: 减少此类 (less of the work's channel or of its author) and
 * taking it back. 不感兴趣 on one work is writes.ts's commit/dislike/item. Logged in, form-encoded, rate-limited as
 * every member write is (the router's write limits).
 */
import { z } from 'zod';
import { LESS_KINDS } from '../../../shared/feed-reason.ts';
import { markLess, undoLess } from '../../services/feed-less.ts';
import { okA } from '../envelope.ts';
import { id } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA } from '../schemas.ts';
import { asBit } from '../shape.ts';

const kind = () => z.enum(LESS_KINDS).describe('channel: less of the work’s channel; author: less of its author');

export const feedSteerRoutes = [
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/dislike/less/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary:
      '减少此类: less of a video’s channel or author in the viewer’s recommend feed from the next page on (sunk, at most one a page)',
    input: z.object({ aweme_id: id(), kind: kind() }),
    response: bodyA({ kind: z.enum(LESS_KINDS), target_id: z.number().int() }),
    handler: async ({ input, viewer }) => {
      const r = await markLess(viewer.id, input.aweme_id, input.kind);
      return okA({ kind: r.kind, target_id: r.targetId });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/dislike/less/cancel/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Takes a 减少此类 back: target_id is the channel or author id that commit/dislike/less answered',
    input: z.object({ kind: kind(), target_id: id() }),
    response: bodyA({ removed: bit }),
    handler: async ({ input, viewer }) =>
      okA({ removed: asBit(await undoLess(viewer.id, input.kind, input.target_id)) }),
  }),
];
