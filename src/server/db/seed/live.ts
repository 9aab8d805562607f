/**
 * Past broadcasts (回放): twelve rooms that ended days ago, each with its clip as the recording and a few chat lines.
 * None is on air: a room is live only while a host really publishes to it.
 */
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
  status: 'ended';
  viewerCount: number;
  startedAt: number;
  endedAt: number;
}

export interface LiveMessagePlan {
  roomId: number;
  userId: number;
  text: string;
  createdAt: number;
}

const ROOMS = 12;
/** Rooms whose draws once made them on air; their draws are kept so that the rest of the seed stays as it was. */
const ONCE_ON_AIR = 10;

export function planLive(
  { rng, ago, clipsFor }: PlanContext,
  { users, creators, creatorCum, activeCum }: Cast,
): { liveRooms: LiveRoomPlan[]; liveMessages: LiveMessagePlan[] } {
  const liveRooms = rng.sample(creatorCum, ROOMS).map((j, k): LiveRoomPlan => {
    const host = creators[j]!;
    const clip = rng.pick(clipsFor(host.channel));
    const startedAt = ago(rng.int(1, 20) * DAY + (k % 12) * HOUR);
    return {
      id: k + 1,
      host,
      channelId: host.channel,
      title: rng.pick(CHANNELS[host.channel].liveTitles),
      clip,
      status: 'ended',
      viewerCount: 0,
      startedAt,
      endedAt: startedAt + (40 + ((k * 37) % 100)) * MINUTE,
    };
  });
  const liveMessages = liveRooms
    .flatMap((room) =>
      Array.from({ length: rng.int(3, 12) }, () => ({
        roomId: room.id,
        userId: users[rng.weighted(activeCum)]!.id,
        text: rng.pick(LIVE_MESSAGES),
        createdAt: Math.floor(room.startedAt + rng.next() * (room.endedAt - room.startedAt)),
      })),
    )
    .sort((x, y) => x.roomId - y.roomId || x.createdAt - y.createdAt);
  // The audience draws of the rooms once on air, made and dropped: an ended room has nobody watching.
  for (let k = 0; k < ONCE_ON_AIR; k++) rng.int(2, 8);
  return { liveRooms, liveMessages };
}
