/** The channels (分类): the editors' metadata (the `channels` content collection) with each channel's count of visible works. */
import { sql } from 'drizzle-orm';
import { listEntries } from '../content/store.ts';
import type { ContentData } from '../content/schemas.ts';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { CHANNEL_IDS } from './videos.ts';
import { visibleWorks } from './visibility.ts';

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
  const { rows } = await db().execute<{ channel_id: number; n: number }>(sql`
    select ${videos.channelId} as channel_id, count(*)::int as n from ${videos} where ${visibleWorks(null)} group by ${videos.channelId}`);
  const counts = new Map(rows.map((r) => [Number(r.channel_id), Number(r.n)]));
  return meta.map((c) => ({ ...c, videoCount: counts.get(c.id) ?? 0 }));
}
