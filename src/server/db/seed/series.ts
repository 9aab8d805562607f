/** Series: 放映厅 short dramas whose episodes are videos of their own, and 合集 of creators' own videos. */
import { CHANNELS, EPISODE_HOOKS, THEATRE } from './content.ts';
import { DAY, HOUR, type PlanContext } from './context.ts';
import type { Cast, UserPlan } from './users.ts';
import type { VideoPlan } from './videos.ts';

export interface SeriesPlan {
  id: number;
  author: UserPlan;
  kind: 'mix' | 'theatre';
  title: string;
  description: string;
  items: VideoPlan[];
}

/** One series per drama of THEATRE, with its episodes as new videos numbered from `firstId`. */
export function planTheatre(
  { rng, ago, nowMs, manifest }: PlanContext,
  { creators, creatorCum }: Cast,
  firstId: number,
): { series: SeriesPlan[]; episodes: VideoPlan[] } {
  const series: SeriesPlan[] = [];
  const episodes: VideoPlan[] = [];
  const theatreAuthors = rng.sample(creatorCum, THEATRE.length);
  for (const [k, drama] of THEATRE.entries()) {
    const author = creators[theatreAuthors[k] ?? k]!;
    const count = rng.int(3, 8);
    const start = ago((count + rng.int(1, 45)) * DAY);
    const clip = rng.pick(manifest.clips);
    const items: VideoPlan[] = [];
    for (let e = 1; e <= count; e++) {
      const hook = e === count ? '大结局' : rng.pick(EPISODE_HOOKS.slice(0, -1));
      const video: VideoPlan = {
        id: firstId + episodes.length,
        author,
        channelId: 300201,
        title: `《${drama.title}》第${e}集 ${hook}`,
        tags: ['短剧', drama.title],
        clip: e % 2 === 0 ? rng.pick(manifest.clips) : clip,
        createdAt: Math.min(nowMs, start + (e - 1) * DAY + rng.int(0, 6) * HOUR),
        appeal: (0.3 + rng.next()) * 0.6,
        theatre: true,
      };
      episodes.push(video);
      items.push(video);
    }
    series.push({ id: 0, author, kind: 'theatre', title: `《${drama.title}》`, description: drama.description, items });
  }
  return { series, episodes };
}

/** 合集: the demo account and the seven most prolific creators gather 3–6 of their own videos. */
export function planMixes({ rng }: PlanContext, { demo, creators }: Cast, videos: VideoPlan[]): SeriesPlan[] {
  const ownVideos = (u: UserPlan) =>
    videos.filter((v) => v.author === u && !v.theatre).sort((x, y) => x.createdAt - y.createdAt || x.id - y.id);
  const prolific = creators
    .map((u) => ({ u, n: ownVideos(u).length }))
    .filter((x) => x.n >= 3)
    .sort((x, y) => y.n - x.n || x.u.id - y.u.id)
    .slice(0, 7)
    .map((x) => x.u);
  return [demo, ...prolific].map((author) => {
    const mine = ownVideos(author);
    const items = mine.slice(0, Math.min(mine.length, rng.int(3, 6)));
    const channel = CHANNELS[items[0]!.channelId];
    const title = rng.pick(channel.mixTitles);
    return { id: 0, author, kind: 'mix' as const, title, description: `${title}，持续更新中`, items };
  });
}

/** Orders series by their first item and numbers them from 1. */
export function numberSeries(series: SeriesPlan[]): SeriesPlan[] {
  series.sort((x, y) => x.items[0]!.createdAt - y.items[0]!.createdAt);
  series.forEach((x, i) => (x.id = i + 1));
  return series;
}
