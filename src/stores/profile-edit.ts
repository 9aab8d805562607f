/** 编辑资料's save: only the changed fields go out, in one multipart form; the session's user info follows the answer. */
import { apiPostMultipart } from './api.ts';
import type { Gender } from '../shared/profile-edit.ts';
import type { SelfUser } from '../shared/api-shapes.ts';
import { $user } from './session.ts';

/** Douyin's write path for profile changes. */
export const PROFILE_EDIT_PATH = '/aweme/v1/web/commit/user/';

/** The changes to send; an absent field stays as it is on the server. */
export interface ProfileChanges {
  nickname?: string;
  signature?: string;
  gender?: Gender;
  /** 'YYYY-MM-DD', or '' to remove it. */
  birthday?: string;
  avatar?: File;
  cover?: File;
}

/** Saves `changes`; resolves to the updated own profile, rejects with the server's message (ApiFailure). */
export async function saveProfile(changes: ProfileChanges): Promise<SelfUser> {
  const body = new FormData();
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value instanceof File) body.set(key, value, value.name);
    else body.set(key, String(value));
  }
  const answer = await apiPostMultipart<{ user: SelfUser }>(PROFILE_EDIT_PATH, body, { quiet: true });
  const info = $user.get().userInfo;
  // The header's avatar and name read the session's copy: keep it in step with the server.
  if (info) $user.setKey('userInfo', { ...info, ...answer.user });
  return answer.user;
}
