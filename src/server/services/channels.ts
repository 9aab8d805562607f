/** The channels (分类): the editors' metadata from src/content/channels.yaml with each channel's count of visible works. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { parse } from 'yaml';
import { z } from 'zod';
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

// The content collection checks the same file at build; the API also runs outside Astro (server.ts), so it reads the file itself.
const channelFile = z.array(
  z.object({
    id: z.string().regex(/^\d+$/).transform(Number),
    name: z.string().min(1),
    description: z.string().min(1),
    banner: z.string().min(1),
    hashtags: z.array(z.string().min(1)),
  }),
);

const CHANNEL_FILE = fileURLToPath(new URL('../../content/channels.yaml', import.meta.url));

/** Every channel in the editors' order; read per call (under a kilobyte) so an edit shows without a restart. */
export async function listChannels(): Promise<Channel[]> {
  const meta = channelFile
    .parse(parse(await readFile(CHANNEL_FILE, 'utf8')))
    .filter((c) => (CHANNEL_IDS as readonly number[]).includes(c.id));
  const { rows } = await db().execute<{ channel_id: number; n: number }>(sql`
    select ${videos.channelId} as channel_id, count(*)::int as n from ${videos} where ${visibleWorks(null)} group by ${videos.channelId}`);
  const counts = new Map(rows.map((r) => [Number(r.channel_id), Number(r.n)]));
  return meta.map((c) => ({ ...c, videoCount: counts.get(c.id) ?? 0 }));
}
