/** Live rooms, ten on air and two ended, with a few chat lines each. */
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
      viewerCount: live ? 50 + Math.floor(rng.next() ** 3 * 30_000) : 0,
      startedAt: live ? ago(rng.int(5, 240) * MINUTE) : ago(rng.int(1, 20) * DAY),
    };
  });
  const liveMessages = liveRooms
    .flatMap((room) =>
      Array.from({ length: rng.int(3, 8) }, () => ({
        roomId: room.id,
        userId: users[rng.weighted(activeCum)]!.id,
        text: rng.pick(LIVE_MESSAGES),
        createdAt: Math.floor(room.startedAt + rng.next() * Math.min(nowMs - room.startedAt, 2 * HOUR)),
      })),
    )
    .sort((x, y) => x.roomId - y.roomId || x.createdAt - y.createdAt);
  return { liveRooms, liveMessages };
}
