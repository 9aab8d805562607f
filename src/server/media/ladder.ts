/** Which renditions a source gets, at what size and bit rate: the ladder by the short side. */
import { GEARS, type Gear } from '../../shared/studio.ts';

/** Target video bit rates (bits/s), used as the encoder's cap; the stored bit rate is measured from the file. */
export const GEAR_MAX_RATE: Record<Gear, number> = { 540: 1_200_000, 720: 2_500_000, 1080: 5_000_000 };

/** The frame as shown: width and height swapped when the stream is stored rotated by a quarter turn. */
export function displaySize(width: number, height: number, rotation = 0): { width: number; height: number } {
  const quarter = Math.abs(Math.round(rotation / 90)) % 2 === 1;
  return quarter ? { width: height, height: width } : { width, height };
}

/** The gears a source of this (displayed) size gets: 540 always, 720 and 1080 when its short side reaches them. */
export function ladderFor(width: number, height: number): Gear[] {
  const short = Math.min(width, height);
  return GEARS.filter((gear) => gear === 540 || short >= gear);
}

const even = (x: number) => Math.max(2, Math.round(x / 2) * 2);

/** The output size of a gear: short side = gear (never upscaled), long side in proportion, both even (H.264 4:2:0). */
export function gearSize(width: number, height: number, gear: Gear): { width: number; height: number } {
  const short = Math.min(width, height);
  const scale = Math.min(1, gear / short);
  return { width: even(width * scale), height: even(height * scale) };
}

/** Douyin's gear_name for a rendition, e.g. 'normal_1080_0'. */
export function gearName(gear: number): string {
  return `normal_${gear}_0`;
}

/** The gear a single file of this size stands for (seeded clips answer a one-rendition ladder). */
export function gearOf(width: number, height: number): Gear {
  const short = Math.min(width, height);
  return [...GEARS].reverse().find((gear) => short >= gear) ?? 540;
}
