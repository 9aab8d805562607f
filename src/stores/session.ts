/** The session this browser holds, apart from the API client: stores/api.ts reads and clears it without importing the user actions. */
import { map } from 'nanostores';
import { hideOwnFollow } from './own-follow.ts';
import type { ProfileUser } from '../shared/api-shapes.ts';
import { endSession, USER_KEY } from './auth.ts';
import { browserStorage, persist, withId } from './persist.ts';

type Named = 'uid' | 'sec_uid' | 'nickname';

/** The logged-in user as the API describes them: profile/self's `user`, of which a login answers only the names and the avatar. */
export type UserInfo = Pick<ProfileUser, Named> &
  Partial<Omit<ProfileUser, Named | 'avatar_thumb'>> & {
    /** A login's answer names the avatar without its `uri`. */
    avatar_thumb?: { url_list: string[] };
    /** From profile/self's user_collect_count.collect_count_list[0]. */
    collect_count?: number;
  };

export interface UserState {
  token: string | null;
  userInfo: UserInfo | null;
}

/** localStorage keys of the login form's remembered email and of the 保存登录信息 switch. */
export const REMEMBER_EMAIL_KEY = 'sy.rememberEmail';
export const SAVE_LOGIN_INFO_KEY = 'sy.saveLoginInfo';
/** What a logout or an expired session leaves in localStorage besides the remembered email: device preferences, not account data. */
const DEVICE_KEYS = ['theme'];

/** The spec's user store: token and userInfo, persisted in localStorage. */
export const $user = withId(USER_KEY, map<UserState>({ token: null, userInfo: null }));
persist($user, { storage: browserStorage('local'), paths: ['token', 'userInfo'] });
// A login or logout made on the page shows or hides 关注 on the viewer's own things at once.
$user.subscribe((u) => hideOwnFollow(u.userInfo?.sec_uid));

/** The email the login form pre-fills, if one is remembered. */
export function rememberedEmail(): string | null {
  return browserStorage('local')?.getItem(REMEMBER_EMAIL_KEY) ?? null;
}

/** Remembers the email for the login form, or forgets it (null). */
export function rememberEmail(email: string | null): void {
  const storage = browserStorage('local');
  try {
    if (email) storage?.setItem(REMEMBER_EMAIL_KEY, email);
    else storage?.removeItem(REMEMBER_EMAIL_KEY);
  } catch {
    // Storage full or blocked: the form just starts empty next time.
  }
}

/**
 * Forgets the session in this browser: user store emptied, the session ended (`endSession`), session storage and local storage cleared
 * except device preferences and, when `keepEmail` is given, the remembered email.
 */
export function clearLocalSession({ keepEmail = rememberedEmail() }: { keepEmail?: string | null } = {}): void {
  $user.set({ token: null, userInfo: null });
  endSession();
  const local = browserStorage('local');
  const kept = DEVICE_KEYS.map((key) => [key, local?.getItem(key) ?? null] as const);
  try {
    local?.clear();
    browserStorage('session')?.clear();
    for (const [key, value] of kept) if (value !== null) local?.setItem(key, value);
  } catch {
    // Blocked storage has nothing of ours to clear.
  }
  rememberEmail(keepEmail);
}
