/**
 * 编辑资料: the owner changes their nickname, bio, gender, birthday, avatar and profile banner. Every rule is checked
 * here (the shared module holds the limits the dialog shows too); pictures are re-encoded as WebP under new keys, so
 * the immutable caching of /media/ never serves an old picture under a new name.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { t } from '../../i18n/t.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import {
  AVATAR_MAX_BYTES,
  AVATAR_SIZE,
  birthdayProblem,
  chinaToday,
  cleanNickname,
  cleanSignature,
  COVER_HEIGHT,
  COVER_MAX_BYTES,
  COVER_WIDTH,
  nicknameProblem,
  signatureProblem,
  type Gender,
  type Problem,
} from '../../shared/profile-edit.ts';
import { db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { toWebp, type ImageTarget } from '../media/images.ts';
import { uploadsDir } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { invalid, notFound, tooLarge } from '../errors.ts';
import { enforce } from './rate-limit.ts';
import { reindexVideoSearch } from './video-search.ts';
import { flagWatched } from '../staff/watched-words.ts';

/** Profile saves one account may make per hour: each may re-encode two pictures. */
export const PROFILE_EDIT_RATE = { limit: 30, windowMs: 60 * 60_000 };

/** The folder under the media root that holds each account's own pictures, one subfolder per account. */
export const PROFILES_DIR = 'profiles';

/** The fields to change; an absent field stays as it is. */
export interface ProfilePatch {
  nickname?: string;
  signature?: string;
  gender?: Gender;
  /** 'YYYY-MM-DD', or '' to remove it. */
  birthday?: string;
  /** The bytes of an uploaded picture. */
  avatar?: Uint8Array;
  cover?: Uint8Array;
}

interface Picture {
  field: 'avatar' | 'cover';
  cap: number;
  target: ImageTarget;
}

const PICTURES: Picture[] = [
  {
    field: 'avatar',
    cap: AVATAR_MAX_BYTES,
    target: { what: t('profile.edit.avatar'), width: AVATAR_SIZE, height: AVATAR_SIZE },
  },
  {
    field: 'cover',
    cap: COVER_MAX_BYTES,
    target: { what: t('profile.edit.cover'), width: COVER_WIDTH, height: COVER_HEIGHT },
  },
];

const refuse = (problem: Problem | null) => {
  if (problem) throw invalid(problem.key, problem.vars);
};
const stamp = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const ownedBy = (userId: number, key: string) => key.startsWith(`${PROFILES_DIR}/${userId}/`);

/** Applies `patch` to `userId`'s profile within PROFILE_EDIT_RATE; throws `invalid` (400) or `too_large` (413) naming the field. */
export async function editProfile(userId: number, patch: ProfilePatch, now = new Date()): Promise<void> {
  if (Object.values(patch).every((v) => v === undefined)) throw invalid('error.profileNoChange');
  await enforce(`profile-edit:${userId}`, PROFILE_EDIT_RATE.limit, PROFILE_EDIT_RATE.windowMs);

  const changes: Partial<typeof users.$inferInsert> = {};
  if (patch.nickname !== undefined) {
    changes.nickname = cleanNickname(patch.nickname);
    refuse(nicknameProblem(changes.nickname));
  }
  if (patch.signature !== undefined) {
    changes.signature = cleanSignature(patch.signature);
    refuse(signatureProblem(changes.signature));
  }
  if (patch.gender !== undefined) changes.gender = patch.gender;
  if (patch.birthday !== undefined) {
    refuse(birthdayProblem(patch.birthday, chinaToday(now)));
    changes.birthday = patch.birthday || null;
  }
  for (const p of PICTURES) {
    const bytes = patch[p.field];
    if (bytes && bytes.byteLength > p.cap)
      throw tooLarge('error.imageTooLarge', { what: p.target.what, max: formatBytes(p.cap) });
  }

  // Every picture is checked and encoded before anything is stored: a bad banner leaves a good avatar unsaved too.
  const encoded = await Promise.all(
    PICTURES.map(async (p) => (patch[p.field] ? { p, webp: await toWebp(patch[p.field]!, p.target) } : null)),
  );
  const stored: string[] = [];
  try {
    for (const item of encoded) {
      if (!item) continue;
      const key = `${PROFILES_DIR}/${userId}/${item.p.field}-${stamp()}.webp`;
      await storeFile(item.webp, key);
      stored.push(key);
      if (item.p.field === 'avatar') changes.avatar = key;
      else changes.banner = key;
    }
    const replaced = await save(userId, changes);
    if (changes.signature) await flagWatched('user', userId, changes.signature);
    // The old pictures go once the new ones are live; seeded and default ones are shared and stay.
    const old = replaced.filter((key) => ownedBy(userId, key));
    if (old.length)
      await mediaStore()
        .remove(old)
        .catch(() => {});
  } catch (error) {
    if (stored.length)
      await mediaStore()
        .remove(stored)
        .catch(() => {});
    throw error;
  }
}

async function storeFile(bytes: Buffer, key: string): Promise<void> {
  const dir = uploadsDir();
  await mkdir(dir, { recursive: true });
  const local = path.join(dir, `profile-${stamp()}.webp`);
  await writeFile(local, bytes);
  try {
    await mediaStore().put(local, key);
  } finally {
    await unlink(local).catch(() => {});
  }
}

/** Writes the changes; returns the picture keys they replaced. A new nickname re-indexes the owner's videos for search. */
async function save(userId: number, changes: Partial<typeof users.$inferInsert>): Promise<string[]> {
  return db().transaction(async (tx) => {
    const [before] = await tx
      .select({ nickname: users.nickname, avatar: users.avatar, banner: users.banner })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!before) throw notFound('error.userNotFound');
    await tx.update(users).set(changes).where(eq(users.id, userId));
    if (changes.nickname !== undefined && changes.nickname !== before.nickname) {
      // A video is found by its author's name too.
      await reindexVideoSearch(tx, { authorId: userId });
    }
    const replaced: string[] = [];
    if (changes.avatar !== undefined) replaced.push(before.avatar);
    if (changes.banner !== undefined) replaced.push(before.banner);
    return replaced;
  });
}
