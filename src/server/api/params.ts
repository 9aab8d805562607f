/** zod building blocks for query and form parameters, which arrive as strings (or as numbers in JSON bodies). */
import { z } from 'zod';
import { SEC_UID, SEC_UID_MAX } from '../../shared/user-id.ts';
import { CHANNEL_IDS, isChannel } from '../services/channel-ids.ts';
import { CURSOR_MAX_LENGTH, parseCursor } from '../services/list-cursor.ts';

export const INT4_MAX = 2_147_483_647;

// Digits only, so '1.5', '1e3', '0x10' and ' 7' stay strings and fail. An optional parameter sent empty never gets
// here (the door drops it, input.ts); a required one fails as missing.
function toInt(value: unknown): unknown {
  if (value === '') return undefined;
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return Number(value);
  return value;
}

/** An integer parameter within [min, max]. */
export function int(min: number, max: number) {
  return z.preprocess(toInt, z.number().int().min(min).max(max));
}

/** A positive int4 id (aweme_id, cid, mix_id, ...). */
export const id = () => int(1, INT4_MAX);

/** One of the eight channel ids (channel/feed's tag_id, Family B's tagId). */
export const channelId = () => int(CHANNEL_IDS[0], CHANNEL_IDS.at(-1)!).refine(isChannel, { message: 'not_a_channel' });

/** Page size: 1 to 50, anything else is a 400. */
export const count = (fallback: number) => int(1, 50).default(fallback).meta({ default: fallback });

/**
 * A list position (cursor, max_cursor): the opaque token the previous page answered, passed back as is; absent, '' or
 * 0 starts the list. Anything else that is not one of our tokens is a 400.
 */
export const cursor = () =>
  z
    .preprocess(
      (v) => (v === 0 || v === '0' ? undefined : v),
      z
        .string()
        .max(CURSOR_MAX_LENGTH)
        .refine((token) => parseCursor(token) !== null, { message: 'bad_cursor' })
        .optional(),
    )
    .meta({ default: '0', description: "The previous page's cursor, as it was answered; 0 for the first page" });

/** An offset where a door's contract is one (Family B's cursor, a refresh round): a non-negative int4. */
export const offset = () => int(0, INT4_MAX).default(0).meta({ default: 0 });

/** A 0/1 flag such as `type` of commit/item/digg. */
export const flag = () => int(0, 1);

/** Free text trimmed of outer whitespace, with a length counted in characters (code points). */
export function text(min: number, max: number) {
  return z
    .string()
    .max(max * 2)
    .refine((s) => [...s.trim()].length >= min, { message: 'too_short' })
    .refine((s) => [...s].length <= max, { message: 'too_long' });
}

/** A comma-separated list of ids (filterGids); at most 100 of them. */
export const idList = () =>
  z
    .string()
    .regex(/^\s*(\d{1,10}\s*(,\s*\d{1,10}\s*)*)?,?\s*$/)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .map(Number),
    )
    .pipe(z.array(z.number().int().min(1).max(INT4_MAX)).max(100));

/** A sec_uid (shared/user-id.ts); min and max stay for the OpenAPI document. */
export const secUid = () => z.string().min(1).max(SEC_UID_MAX).regex(SEC_UID);
