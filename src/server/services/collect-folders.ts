/**
 * 收藏夹: collects are kept per video, so every user has exactly one folder, the videos they collected; its id is the
 * owner's user id. Who may open it is the 收藏 tab's rule (visibility.ts).
 */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { getById } from './users.ts';
import type { Page, Paged, VideoCard } from './video-cards.ts';
import { profileTab } from './videos.ts';
import { assertTabVisible, readPrivacy, visibleWorks } from './visibility.ts';

export interface CollectFolder {
  id: number;
  ownerId: number;
  /** Collected videos the viewer may see, as the folder's video list counts them. */
  total: number;
  /** Poster of the latest of them; null while the folder is empty. */
  cover: string | null;
  /** The folder exists as long as its owner: their account's creation. */
  createdAt: Date;
  lastCollectAt: Date | null;
  /** Hidden from others (the owner turned 公开我的收藏 off). */
  isPrivate: boolean;
}

/** The folder of `ownerId` as `viewerId` may see it; notFound for an unknown folder, the tab's refusal otherwise. */
export async function collectFolder(ownerId: number, viewerId: number | null): Promise<CollectFolder> {
  const owner = await getById(ownerId);
  if (!owner) throw notFound('error.collectsNotFound');
  assertTabVisible(viewerId, owner, 'favorite_collection');
  const collected = sql`from collects c join ${videos} on ${videos.id} = c.video_id where c.user_id = u.id and ${visibleWorks(viewerId)}`;
  const { rows } = await db().execute<{
    created_at: Date | string;
    total: number;
    last_at: Date | string | null;
    cover: string | null;
  }>(sql`
    select u.created_at,
      (select count(*)::int ${collected}) as total,
      (select max(c.created_at) ${collected}) as last_at,
      (select ${videos.poster} ${collected} order by c.created_at desc, ${videos.id} desc limit 1) as cover
    from users u where u.id = ${owner.id}`);
  const row = rows[0];
  if (!row) throw notFound('error.collectsNotFound');
  return {
    id: owner.id,
    ownerId: owner.id,
    total: Number(row.total),
    cover: row.cover,
    createdAt: new Date(row.created_at),
    lastCollectAt: row.last_at === null ? null : new Date(row.last_at),
    isPrivate: !readPrivacy(owner.privacy).collectsPublic,
  };
}

/** A page of the folder's videos, latest collect first, as `viewerId` may see them (the 收藏 tab's list). */
export async function collectFolderVideos(
  folderId: number,
  viewerId: number | null,
  page: Page,
): Promise<Paged<VideoCard>> {
  const owner = await getById(folderId);
  if (!owner) throw notFound('error.collectsNotFound');
  assertTabVisible(viewerId, owner, 'favorite_collection');
  return profileTab(owner.id, 'favorite_collection', page, viewerId);
}
