/** A video's ladder as players choose from it: the encoded renditions of an uploaded work, or a seeded clip's one file. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { gearOf } from '../media/ladder.ts';

export interface Rendition {
  gear: number;
  width: number;
  height: number;
  /** Bits per second. */
  bitRate: number;
  /** Under the media root (mediaUrl() makes its URL). */
  path: string;
  sizeBytes: number;
}

/** The encoded ladder of each studio work among `videoIds`, highest gear first (others get none: see ladderOrFile). */
export async function laddersOf(videoIds: number[]): Promise<Map<number, Rendition[]>> {
  const out = new Map<number, Rendition[]>();
  if (videoIds.length === 0) return out;
  const ids = sql`array[${sql.join(
    videoIds.map((id) => sql`${id}::int`),
    sql`, `,
  )}]`;
  const { rows } = await db().execute<{
    video_id: number;
    gear: number;
    width: number;
    height: number;
    bit_rate: number;
    path: string;
    size_bytes: string;
  }>(sql`
    select r.video_id, r.gear, r.width, r.height, r.bit_rate, r.path, r.size_bytes
      from video_renditions r where r.video_id = any(${ids})`);
  for (const r of rows) {
    const id = Number(r.video_id);
    const list = out.get(id) ?? [];
    list.push({
      gear: Number(r.gear) || gearOf(r.width, r.height),
      width: r.width,
      height: r.height,
      bitRate: Number(r.bit_rate),
      path: r.path,
      sizeBytes: Number(r.size_bytes),
    });
    out.set(id, list);
  }
  for (const list of out.values()) list.sort((a, b) => b.gear - a.gear);
  return out;
}

/** A video's ladder as every door answers it: its loaded renditions, or its one file when it has none. */
export function ladderOrFile(
  card: { media: string; width: number; height: number; sizeBytes: number; durationMs: number },
  ladder: Rendition[] | undefined,
): Rendition[] {
  if (ladder?.length) return ladder;
  const bitRate = Math.round((card.sizeBytes * 8000) / Math.max(card.durationMs, 1));
  return [
    {
      gear: gearOf(card.width, card.height),
      width: card.width,
      height: card.height,
      bitRate,
      path: card.media,
      sizeBytes: card.sizeBytes,
    },
  ];
}

/** The rendition a plain `play_addr` points at: the highest gear up to 720 (HD without the 1080 file's weight). */
export function defaultRendition<T extends { gear: number }>(ladder: T[]): T | undefined {
  return [...ladder].sort((a, b) => b.gear - a.gear).find((r) => r.gear <= 720) ?? ladder.at(-1);
}
