/** The creator studio's 作品数据 (Family B): my figures per day and in total over 7 or 30 days, for all works or one. */
import { z } from 'zod';
import { STATS_API, STATS_RANGES, type CreatorStats, type StatsRange } from '../../../shared/creator-stats.ts';
import { creatorStats } from '../../services/creator-stats.ts';
import { okB } from '../envelope.ts';
import { id, int } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';

const n = () => z.number().int();
const figures = { plays: n(), likes: n(), comments: n(), shares: n(), newFollowers: n() };
const day = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const range = () =>
  int(1, 365)
    .refine((d): d is StatsRange => (STATS_RANGES as readonly number[]).includes(d), {
      message: `days: ${STATS_RANGES.join(' or ')}`,
    })
    .default(STATS_RANGES[0])
    .meta({ default: STATS_RANGES[0], enum: [...STATS_RANGES] });

const statsB = z.object({
  days: z.union(STATS_RANGES.map((r) => z.literal(r)) as [z.ZodLiteral<7>, z.ZodLiteral<30>]),
  workId: n().nullable(),
  totals: z.object(figures),
  daily: z.array(z.object({ day: day(), ...figures })),
  works: z.array(z.object({ id: n(), title: z.string() })),
}) satisfies z.ZodType<CreatorStats>;

export const studioStatsRoutes = [
  route({
    method: 'GET',
    path: STATS_API.replace(/^\/api/, ''),
    family: 'B',
    auth: true,
    summary:
      '作品数据: my plays, likes, comments, shares and new followers per day (China’s calendar) and in total over the last days (7 or 30), of all my published works or of one (workId); new followers are the account’s',
    input: z.object({ days: range(), workId: id().optional() }),
    response: bodyB(statsB),
    handler: async ({ input, viewer }) => okB(await creatorStats(viewer.id, input.days as StatsRange, input.workId)),
  }),
];
