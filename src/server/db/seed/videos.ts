/** The videos: the demo account's six, one per creator, then each channel filled up to 41; and their hashtags. */
import { CHANNEL_IDS, CHANNELS, type ChannelId } from './content.ts';
import { DAY, type PlanContext } from './context.ts';
import type { MediaClip } from './manifest.ts';
import { cumulate, type Rng } from './rng.ts';
import type { Cast, UserPlan } from './users.ts';

export interface VideoPlan {
  id: number;
  author: UserPlan;
  channelId: ChannelId;
  title: string;
  tags: string[];
  clip: MediaClip;
  createdAt: number;
  appeal: number;
  theatre: boolean;
}

/** The videos and their appeal, which later draws pick them by. */
export interface Catalogue {
  videos: VideoPlan[];
  videoCum: number[];
}

const VIDEOS_PER_CHANNEL = 41;

function fill(template: string, rng: Rng, content: { a: string[]; b: string[] }): { text: string; a?: string } {
  let a: string | undefined;
  const text = template.replace('{a}', () => (a = rng.pick(content.a))).replace('{b}', () => rng.pick(content.b));
  return a === undefined ? { text } : { text, a };
}

export function planVideos({ rng, ago, clipsFor }: PlanContext, { demo, creators, creatorCum }: Cast): VideoPlan[] {
  const videos: VideoPlan[] = [];
  const titles = new Set<string>();
  const addVideo = (author: UserPlan, channelId: ChannelId, createdAt: number) => {
    const content = CHANNELS[channelId];
    let title = '';
    let a: string | undefined;
    for (let attempt = 0; attempt < 12 && (title === '' || titles.has(title)); attempt++) {
      ({ text: title, a } = fill(rng.pick(content.titles), rng, content));
    }
    titles.add(title);
    const tags = new Set<string>();
    if (rng.chance(0.75)) tags.add(content.tags[0]!);
    if (a !== undefined && rng.chance(0.7)) tags.add(a);
    const extra = rng.int(tags.size === 0 ? 1 : 0, 1);
    for (let k = 0; k < extra && tags.size < 3; k++) tags.add(rng.pick(content.tags.slice(1)));
    const video: VideoPlan = {
      id: videos.length + 1,
      author,
      channelId,
      title,
      tags: [...tags],
      clip: rng.pick(clipsFor(channelId)),
      createdAt,
      appeal: (0.15 + rng.next() ** 2) * (0.3 + Math.sqrt(author.weight)),
      theatre: false,
    };
    videos.push(video);
    return video;
  };
  const videoTime = () => (rng.chance(0.3) ? ago(rng.next() * 2 * DAY) : ago(2 * DAY + rng.next() * 58 * DAY));

  // The demo account's own six, mostly recent so its notifications are fresh.
  for (const [k, channel] of ([300204, 300201, 300209, 300203, 300208, 300207] as const).entries()) {
    addVideo(demo, channel, ago(k < 2 ? rng.next() * 2 * DAY : (2 + rng.next() * 8) * DAY));
  }
  // Every creator posts at least once in their channel, then each channel is filled up.
  for (const u of creators) addVideo(u, u.channel, videoTime());
  for (const channel of CHANNEL_IDS) {
    const local = creators.filter((u) => u.channel === channel);
    const localCum = cumulate(local.map((u) => u.weight));
    let have = videos.filter((v) => v.channelId === channel && !v.author.isDemo).length;
    for (; have < VIDEOS_PER_CHANNEL; have++) {
      const author = rng.chance(0.8) ? local[rng.weighted(localCum)]! : creators[rng.weighted(creatorCum)]!;
      addVideo(author, channel, videoTime());
    }
  }
  return videos;
}

/** The catalogue every later draw picks videos from, by appeal. */
export function catalogueOf(videos: VideoPlan[]): Catalogue {
  return { videos, videoCum: cumulate(videos.map((v) => v.appeal)) };
}

/** An `exclude` for `sample`: the indexes of `u`'s own videos. */
export function authoredBy(videos: VideoPlan[], u: UserPlan): (i: number) => boolean {
  return (i) => videos[i]!.author === u;
}

/** Hashtag ids in first-use order, after the `base` ids a database already has. */
export function hashtagIdsOf(videos: VideoPlan[], base: number): Map<string, number> {
  const ids = new Map<string, number>();
  for (const v of videos) for (const t of v.tags) if (!ids.has(t)) ids.set(t, base + ids.size + 1);
  return ids;
}
