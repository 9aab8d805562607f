/**
 * A member's live studio: the stream key a broadcasting tool publishes with (random, shown once, stored as a SHA-256
 * hash), the next broadcast's title, cover, channel and recording switch, and why the last publish was refused.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { db } from '../db/client.ts';
import { liveHosts, users } from '../db/schema.ts';
import { invalid, type MessageVars } from '../errors.ts';
import { CHANNEL_IDS, isChannel } from './videos.ts';

/** Key regenerations one member may make per hour. */
export const LIVE_KEY_RATE = { limit: 20, windowMs: 60 * 60 * 1000 };
/** Settings saves one member may make per minute. */
export const LIVE_SETTINGS_RATE = { limit: 30, windowMs: 60 * 1000 };
/** Longest broadcast title, in characters. */
export const LIVE_TITLE_MAX = 40;

/** A stream key: `u<user id>-<43 characters of base64url>` (256 random bits); the id finds the hash to compare. */
const KEY_PATTERN = /^u([1-9]\d{0,9})-([A-Za-z0-9_-]{43})$/;

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The user a key claims to be, without checking it; null when it has not the shape of a key. */
export function keyUser(key: string): number | null {
  const m = KEY_PATTERN.exec(key);
  return m ? Number(m[1]) : null;
}

/** Makes a new stream key for `userId` (the old one stops working) and answers it: the only time it is seen. */
export async function issueKey(userId: number): Promise<string> {
  const key = `u${userId}-${randomBytes(32).toString('base64url')}`;
  await db()
    .insert(liveHosts)
    .values({ userId, keyHash: hash(key), keyCreatedAt: sql`now()` })
    .onConflictDoUpdate({ target: liveHosts.userId, set: { keyHash: hash(key), keyCreatedAt: sql`now()` } });
  return key;
}

/** The member a stream key belongs to, or null for a wrong key (compared in constant time). */
export async function verifyKey(key: string): Promise<number | null> {
  const userId = keyUser(key);
  if (userId === null) return null;
  const [row] = await db().select({ keyHash: liveHosts.keyHash }).from(liveHosts).where(eq(liveHosts.userId, userId));
  if (!row?.keyHash) return null;
  const a = Buffer.from(row.keyHash, 'hex');
  const b = Buffer.from(hash(key), 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? userId : null;
}

export interface LiveSettings {
  title: string;
  /** A media key, '' for the stream's own frame. */
  cover: string;
  channelId: number;
  record: boolean;
  hasKey: boolean;
  keyCreatedAt: Date | null;
  refusal: { key: MessageKey; vars: MessageVars | null; at: Date } | null;
}

/** A member's live settings (defaults until they save any: their nickname's room in the first channel). */
export async function getSettings(userId: number): Promise<LiveSettings> {
  const [row] = await db()
    .select({ host: liveHosts, nickname: users.nickname })
    .from(users)
    .leftJoin(liveHosts, eq(liveHosts.userId, users.id))
    .where(eq(users.id, userId));
  const h = row?.host;
  return {
    title: h?.title || defaultTitle(row?.nickname ?? ''),
    cover: h?.cover ?? '',
    channelId: h?.channelId ?? CHANNEL_IDS[0],
    record: h?.record ?? false,
    hasKey: !!h?.keyHash,
    keyCreatedAt: h?.keyCreatedAt ?? null,
    refusal:
      h?.refusal && h.refusedAt ? { key: h.refusal as MessageKey, vars: h.refusalVars ?? null, at: h.refusedAt } : null,
  };
}

function defaultTitle(nickname: string): string {
  return [...`${nickname}的直播间`].slice(0, LIVE_TITLE_MAX).join('');
}

/** Saves what the next broadcast (and the one on air, for its title) is called, where it is listed and if recorded. */
export async function saveSettings(
  userId: number,
  input: { title?: string; channelId?: number; record?: boolean; cover?: string },
): Promise<void> {
  const set: Partial<typeof liveHosts.$inferInsert> = {};
  if (input.title !== undefined) {
    const title = input.title.replace(/[\p{Cc}]/gu, '').trim();
    if (!title) throw invalid('error.liveTitleEmpty');
    if ([...title].length > LIVE_TITLE_MAX) throw invalid('error.liveTitleTooLong', { max: LIVE_TITLE_MAX });
    set.title = title;
  }
  if (input.channelId !== undefined) {
    if (!isChannel(input.channelId)) throw invalid('error.channelInvalid');
    set.channelId = input.channelId;
  }
  if (input.record !== undefined) set.record = input.record;
  if (input.cover !== undefined) set.cover = input.cover;
  if (Object.keys(set).length === 0) return;
  await db()
    .insert(liveHosts)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: liveHosts.userId, set });
}

/** Records why a publish of `userId` was refused, for their studio to say. */
export async function recordRefusal(userId: number, key: MessageKey, vars?: MessageVars): Promise<void> {
  await db()
    .insert(liveHosts)
    .values({ userId, refusal: key, refusalVars: vars ?? null, refusedAt: sql`now()` })
    .onConflictDoUpdate({
      target: liveHosts.userId,
      set: { refusal: key, refusalVars: vars ?? null, refusedAt: sql`now()` },
    })
    // A key naming an account that does not exist (deleted, or made up) has nowhere to be shown.
    .catch(() => {});
}
