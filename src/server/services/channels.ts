/** The channels (分类): the editors' metadata (the `channels` content collection) with each channel's count of visible works. */
import { listEntries } from '../content/store.ts';
import type { ContentData } from '../content/schemas.ts';
import { db } from '../db/client.ts';
import { channelCounts } from '../db/schema.ts';
import { CHANNEL_IDS } from './channel-ids.ts';

export interface Channel {
  id: number;
  name: string;
  description: string;
  /** Media path of the channel page's banner. */
  banner: string;
  /** The channel page's featured hashtags. */
  hashtags: string[];
  /** Works anyone may see in the channel. */
  videoCount: number;
}

/** Every channel in the editors' order, as published now (content/store.ts drops its copy at every publication). */
export async function listChannels(): Promise<Channel[]> {
  const meta = (await listEntries('channels'))
    .map((e) => ({ id: Number(e.id), ...(e.data as ContentData<'channels'>) }))
    .filter((c) => (CHANNEL_IDS as readonly number[]).includes(c.id))
    .sort((a, b) => a.id - b.id);
  // Stored counts (kept by a trigger as works come and go): counting a channel's works per call grows with the site.
  const rows = await db().select().from(channelCounts);
  const counts = new Map(rows.map((r) => [r.channelId, r.videoCount]));
  return meta.map((c) => ({ ...c, videoCount: counts.get(c.id) ?? 0 }));
}
