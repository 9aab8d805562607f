/**
 * Who may see what: the tabs of a profile and the works themselves. Both API families and the pages ask here, so a
 * tab hidden on the page is refused by the API, and a work hidden from a list is hidden from every list.
 */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { videos, type Privacy } from '../db/schema.ts';
import type { Visibility, WorkStatus } from '../../shared/studio.ts';
import { notBlockedBy } from './blocks.ts';
import { forbidden, ServiceError } from '../errors.ts';

/** A profile's tabs in the order the page shows them: 作品, 喜欢, 收藏, 观看历史, 稍后再看. */
export const PROFILE_TABS = ['post', 'like', 'favorite_collection', 'record', 'watch_later'] as const;

export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The profile a tab belongs to, as far as the policy needs it. */
export interface TabOwner {
  id: number;
  privacy: Partial<Privacy>;
}

/** A stored privacy setting, every flag present: only an explicit false hides (older rows may lack a flag). */
export function readPrivacy(stored: Partial<Privacy>): Privacy {
  return { likesPublic: stored.likesPublic !== false, collectsPublic: stored.collectsPublic !== false };
}

/**
 * Why `viewerId` may not open `tab` of `owner`'s profile, or null when they may. The owner sees every tab; others see
 * 作品, 喜欢 while likesPublic, 收藏 while collectsPublic, and never the owner's history or watch-later list (asked
 * anonymously, that is a 401: logging in as the owner is the only way in).
 */
export function tabRefusal(viewerId: number | null, owner: TabOwner, tab: ProfileTab): ServiceError | null {
  if (viewerId === owner.id) return null;
  const privacy = readPrivacy(owner.privacy);
  switch (tab) {
    case 'post':
      return null;
    case 'like':
      return privacy.likesPublic ? null : forbidden('error.likesPrivate');
    case 'favorite_collection':
      return privacy.collectsPublic ? null : forbidden('error.collectsPrivate');
    case 'record':
    case 'watch_later':
      return viewerId === null ? new ServiceError('unauthorized', 'error.unauthorized') : forbidden('error.privateTab');
  }
}

/** The tabs of `owner`'s profile that `viewerId` may open, in page order (作品 is always among them). */
export function visibleTabs(viewerId: number | null, owner: TabOwner): ProfileTab[] {
  return PROFILE_TABS.filter((tab) => tabRefusal(viewerId, owner, tab) === null);
}

/** Throws the refusal when `viewerId` may not open `tab` of `owner`'s profile; the API answers it in its family's envelope. */
export function assertTabVisible(viewerId: number | null, owner: TabOwner, tab: ProfileTab): void {
  const refusal = tabRefusal(viewerId, owner, tab);
  if (refusal) throw refusal;
}

/** The tab a `?showTab=` address opens among the visible `tabs`: the one asked for ('posts' is an alias of 'post'), else 作品. */
export function tabFromQuery(tabs: readonly ProfileTab[], requested: string | null): ProfileTab {
  const wanted = requested === 'posts' ? 'post' : requested;
  return tabs.find((tab) => tab === wanted) ?? 'post';
}

/** What the work rule reads of a video. */
export interface WorkFacts {
  authorId: number;
  deletedAt: Date | null;
  status: WorkStatus;
  visibility: Visibility;
}

/**
 * Whether `viewerId` (null: anonymous) may see a work: published and not deleted, and then public, or the viewer's
 * own, or friends-only with the viewer and the author following each other (`mutual`). `visibleWorks` is the same
 * rule as SQL.
 */
export function canSeeWork(viewerId: number | null, work: WorkFacts, mutual = false): boolean {
  if (work.deletedAt !== null || work.status !== 'published') return false;
  if (work.visibility === 'public' || work.authorId === viewerId) return true;
  return work.visibility === 'friends' && viewerId !== null && mutual;
}

/**
 * The condition on `videos` that keeps the works `viewerId` may see (`canSeeWork` for lists); every card list ANDs it
 * in. For a logged-in viewer it also leaves out the works of users they blocked (blocks.ts), so a block empties every
 * feed and list read for them of that author at once.
 */
export function visibleWorks(viewerId: number | null): SQL {
  // Literals, not parameters: the ranking indexes hold exactly the anonymous rule as their predicate, and only a
  // literal lets a prepared statement's plan prove that a query stays inside them.
  const listed = and(isNull(videos.deletedAt), sql`${videos.status} = 'published'`) as SQL;
  if (viewerId === null) return and(listed, sql`${videos.visibility} = 'public'`) as SQL;
  const mutual = sql`exists (select 1 from follows fa join follows fb on fb.follower_id = fa.followee_id and fb.followee_id = fa.follower_id
    where fa.follower_id = ${viewerId} and fa.followee_id = ${videos.authorId})`;
  return and(
    listed,
    or(eq(videos.visibility, 'public'), eq(videos.authorId, viewerId), and(eq(videos.visibility, 'friends'), mutual)),
    notBlockedBy(viewerId, videos.authorId),
  ) as SQL;
}
