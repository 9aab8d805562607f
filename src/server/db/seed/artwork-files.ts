/** The seed's pictures as files: rendered from the finished plan and put in the media store beside the uploads. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MediaStore } from '../../media/store.ts';
import { avatarKey, avatarSvg, liveCoverKey, liveCoverSvg, posterKey, posterSvg } from './artwork.ts';
import type { SeedPlan } from './plan.ts';

export interface ArtworkFile {
  key: string;
  body: string;
}

/** Every poster, live cover and letter avatar the plan's rows point at. */
export function artworkFiles(plan: Pick<SeedPlan, 'users' | 'videos' | 'liveRooms'>): ArtworkFile[] {
  return [
    ...plan.users.map((u) => ({
      key: avatarKey(u.id),
      body: avatarSvg({ id: u.id, nickname: u.nickname, channel: u.channel }),
    })),
    ...plan.videos.map((v) => ({
      key: posterKey(v.id),
      body: posterSvg({ id: v.id, title: v.title, channelId: v.channelId, author: v.author.nickname }),
    })),
    ...plan.liveRooms.map((r) => ({
      key: liveCoverKey(r.id),
      body: liveCoverSvg({ id: r.id, title: r.title, channelId: r.channelId, host: r.host.nickname }),
    })),
  ];
}

/** Puts in flight at once: a bucket answers each put after a round trip, and the seed has hundreds of pictures. */
const PUTS_AT_ONCE = 8;

/** Writes `files` into `store` (each staged in a temporary folder, then put, so no reader sees half a file). */
export async function writeArtwork(store: MediaStore, files: ArtworkFile[]): Promise<void> {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'shanying-artwork-'));
  let next = 0;
  const putEach = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const local = path.join(staging, `${i}.svg`);
      await writeFile(local, files[i]!.body);
      await store.put(local, files[i]!.key);
    }
  };
  try {
    await Promise.all(Array.from({ length: PUTS_AT_ONCE }, putEach));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
