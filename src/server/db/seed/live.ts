/** Live rooms, ten on air and two ended, with a few chat lines each and an audience that fits them. */
import { CHANNELS, LIVE_MESSAGES, type ChannelId } from './content.ts';
import { DAY, HOUR, MINUTE, type PlanContext } from './context.ts';
import type { MediaClip } from './manifest.ts';
import type { Cast, UserPlan } from './users.ts';

export interface LiveRoomPlan {
  id: number;
  host: UserPlan;
  channelId: ChannelId;
  title: string;
  clip: MediaClip;
  status: 'live' | 'ended';
  viewerCount: number;
  startedAt: number;
}

export interface LiveMessagePlan {
  roomId: number;
  userId: number;
  text: string;
  createdAt: number;
}

const ROOMS = 12;
const ON_AIR = 10;
/** A seeded room on air has at most this many viewers per user who chatted in it: most viewers never type. */
export const SEED_VIEWERS_PER_CHATTER = 8;

export function planLive(
  { rng, ago, nowMs, clipsFor }: PlanContext,
  { users, creators, creatorCum, activeCum }: Cast,
): { liveRooms: LiveRoomPlan[]; liveMessages: LiveMessagePlan[] } {
  const liveRooms = rng.sample(creatorCum, ROOMS).map((j, k): LiveRoomPlan => {
    const host = creators[j]!;
    const clip = rng.pick(clipsFor(host.channel));
    const live = k < ON_AIR;
    return {
      id: k + 1,
      host,
      channelId: host.channel,
      title: rng.pick(CHANNELS[host.channel].liveTitles),
      clip,
      status: live ? 'live' : 'ended',
      viewerCount: 0,
      startedAt: live ? ago(rng.int(5, 240) * MINUTE) : ago(rng.int(1, 20) * DAY),
    };
  });
  const liveMessages = liveRooms
    .flatMap((room) =>
      Array.from({ length: rng.int(3, 12) }, () => ({
        roomId: room.id,
        userId: users[rng.weighted(activeCum)]!.id,
        text: rng.pick(LIVE_MESSAGES),
        createdAt: Math.floor(room.startedAt + rng.next() * Math.min(nowMs - room.startedAt, 2 * HOUR)),
      })),
    )
    .sort((x, y) => x.roomId - y.roomId || x.createdAt - y.createdAt);
  for (const room of liveRooms) {
    if (room.status !== 'live') continue;
    const chatters = new Set(liveMessages.filter((m) => m.roomId === room.id).map((m) => m.userId)).size;
    room.viewerCount = chatters * rng.int(2, SEED_VIEWERS_PER_CHATTER);
  }
  return { liveRooms, liveMessages };
}
