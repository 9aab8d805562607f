/** The people I follow, for the title's @ autocomplete: read once, on the first '@'. */
import { atom } from 'nanostores';
import { apiGet } from './api.ts';
import type { FollowUser } from '../shared/api-shapes.ts';

export interface MentionCandidate {
  secUid: string;
  nickname: string;
  avatar: string | null;
}

/** Pages read from the following list (50 each): enough people to pick from without reading a long list whole. */
export const FOLLOWING_PAGES = 4;
/** Suggestions shown at once. */
export const MENTION_SUGGESTIONS = 8;

/** Everyone read so far, in the list's order (latest follow first); null until read. */
export const $mentionCandidates = atom<MentionCandidate[] | null>(null);

interface FollowingPage {
  followings: FollowUser[];
  offset: number;
  has_more: 0 | 1;
}

let pending: Promise<void> | null = null;

/** Reads the people I follow (once per page). */
export function loadMentionCandidates(): Promise<void> {
  if ($mentionCandidates.get()) return Promise.resolve();
  pending ??= (async () => {
    const found: MentionCandidate[] = [];
    let offset = 0;
    try {
      for (let page = 0; page < FOLLOWING_PAGES; page++) {
        const body = await apiGet<FollowingPage>(
          '/aweme/v1/web/user/following/list/',
          { offset, count: 50 },
          { quiet: true },
        );
        found.push(
          ...body.followings.map((u) => ({
            secUid: u.sec_uid,
            nickname: u.nickname,
            avatar: u.avatar_thumb.url_list[0] ?? null,
          })),
        );
        if (body.has_more !== 1 || body.followings.length === 0) break;
        offset = body.offset;
      }
      $mentionCandidates.set(found);
    } catch {
      // Without the list the title still takes a typed @name; the next '@' tries again.
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/** Candidates whose nickname holds `query` (case-insensitive), those starting with it first; all of them for ''. */
export function suggestMentions(
  candidates: MentionCandidate[],
  query: string,
  limit = MENTION_SUGGESTIONS,
): MentionCandidate[] {
  const q = query.toLowerCase();
  const starts: MentionCandidate[] = [];
  const holds: MentionCandidate[] = [];
  for (const c of candidates) {
    const name = c.nickname.toLowerCase();
    if (name.startsWith(q)) starts.push(c);
    else if (name.includes(q)) holds.push(c);
  }
  return [...starts, ...holds].slice(0, limit);
}
