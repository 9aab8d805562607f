/** The channels (分类): the editors' metadata from src/content/channels.yaml with each channel's count of visible works. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
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
  // Stored counts (kept by a trigger as works come and go): counting a channel's works per call grows with the site.
  const rows = await db().select().from(channelCounts);
  const counts = new Map(rows.map((r) => [r.channelId, r.videoCount]));
  return meta.map((c) => ({ ...c, videoCount: counts.get(c.id) ?? 0 }));
}
