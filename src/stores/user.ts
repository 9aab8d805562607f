import { atom } from 'nanostores';
import { apiGet, apiPost, type ApiFailure } from './api.ts';
import { setFlash } from './flash.ts';
import { $auth, setLoggedIn, startCodeCountdown } from './auth.ts';
import { browserStorage, persist, withId } from './persist.ts';
import {
  $user,
  clearLocalSession,
  rememberedEmail,
  rememberEmail,
  SAVE_LOGIN_INFO_KEY,
  type UserInfo,
} from './session.ts';

export {
  $user,
  clearLocalSession,
  REMEMBER_EMAIL_KEY,
  rememberedEmail,
  SAVE_LOGIN_INFO_KEY,
  type UserInfo,
  type UserState,
} from './session.ts';

/** True while the user info is being fetched. */
export const $userLoading = atom(false);

/** The user menu's 保存登录信息 switch: on, the email stays remembered after logout; off, it is forgotten. */
export const $saveLoginInfo = withId(SAVE_LOGIN_INFO_KEY, atom(true));
persist($saveLoginInfo, { storage: browserStorage('local') });

interface ProfileSelf {
  user: UserInfo;
  user_collect_count?: { collect_count_list?: { collect_count?: number }[] };
}

interface LoginAnswer {
  token: string;
  user: UserInfo;
  /** This login took back the account's pending 注销. */
  deletion_cancelled?: boolean;
}

let deletionCancelled = false;

/** Whether the last login cancelled a pending 注销 (asked once, by the login dialog as it finishes). */
export function takeDeletionCancelled(): boolean {
  const was = deletionCancelled;
  deletionCancelled = false;
  return was;
}

/** The avatar URL to show for a user (thumb first). */
export function avatarOf(
  info: Pick<UserInfo, 'avatar_thumb' | 'avatar_300x300'> | null | undefined,
): string | undefined {
  return info?.avatar_thumb?.url_list?.[0] ?? info?.avatar_300x300?.url_list?.[0];
}

/**
 * Fetches the user info: status_code 0 stores it and sets isLogin; anything else sets isLogin false. An answer that
 * arrives after a logout or login on the page (`routerKey` moved on) is of a session that is gone: it is dropped, or a
 * logout clicked while the menu's counts load would write the account back into localStorage after clearing it.
 */
export async function loadUserInfo(): Promise<UserInfo | null> {
  $userLoading.set(true);
  const session = $auth.get().routerKey;
  try {
    const body = await apiGet<ProfileSelf>('/aweme/v1/web/user/profile/self/');
    if ($auth.get().routerKey !== session) return null;
    const info: UserInfo = {
      ...body.user,
      collect_count: body.user_collect_count?.collect_count_list?.[0]?.collect_count ?? 0,
    };
    $user.setKey('userInfo', info);
    setLoggedIn(true);
    return info;
  } catch {
    if ($auth.get().routerKey === session) setLoggedIn(false);
    return null;
  } finally {
    $userLoading.set(false);
  }
}

let started = false;

/**
 * Starts the client session once per page from what the server rendered:
 * logged in, or holding a token the server did not accept, asks for the user info, so a stale token meets the
 * 401 rule. The header calls it when it needs the user (menu opened, saved token found), so the API client
 * is not part of every page's first load.
 */
export function startSession(serverLoggedIn: boolean): Promise<UserInfo | null> | undefined {
  if (started) return undefined;
  started = true;
  $auth.setKey('isLogin', serverLoggedIn);
  return serverLoggedIn || $user.get().token ? loadUserInfo() : undefined;
}

/** Records a login: token and user info stored, isLogin set. */
export function loginSucceeded(token: string, userInfo: UserInfo): void {
  $user.set({ token, userInfo: { ...$user.get().userInfo, ...userInfo } });
  setLoggedIn(true);
}

function completeLogin(answer: LoginAnswer, email?: string): UserInfo {
  loginSucceeded(answer.token, answer.user);
  deletionCancelled = answer.deletion_cancelled === true;
  if (email && $saveLoginInfo.get()) rememberEmail(email.trim());
  return answer.user;
}

/** Logs in with email and password; rejects with the server's message (ApiFailure) for the form to show. */
export async function loginWithPassword(email: string, password: string): Promise<UserInfo> {
  const answer = await apiPost<LoginAnswer>(
    '/passport/login/password',
    { email: email.trim(), password },
    { quiet: true },
  );
  return completeLogin(answer, email);
}

/** Asks for an emailed code and starts the resend countdown (from Retry-After when the server says wait). */
export async function sendLoginCode(email: string): Promise<void> {
  try {
    const answer = await apiPost<{ retry_after?: number }>(
      '/passport/code/send',
      { email: email.trim() },
      { quiet: true },
    );
    startCodeCountdown(answer.retry_after ?? 60);
  } catch (error) {
    const retryAfter = (error as ApiFailure).retryAfter;
    if ((error as ApiFailure).status === 429 && retryAfter) startCodeCountdown(retryAfter);
    throw error;
  }
}

/** Logs in with an emailed code (a first code login creates the account). */
export async function loginWithCode(email: string, code: string): Promise<UserInfo> {
  const answer = await apiPost<LoginAnswer>(
    '/passport/login/code',
    { email: email.trim(), code: code.trim() },
    { quiet: true },
  );
  return completeLogin(answer, email);
}

export type QrStatus = 'pending' | 'scanned' | 'confirmed' | 'expired';

export interface QrTicket {
  ticket: string;
  url: string;
  svg: string;
  expires_at: number | string;
}

/** Opens a QR login ticket for the dialog. */
export function createQrTicket(): Promise<QrTicket> {
  return apiPost<QrTicket>('/passport/qr/create', {}, { quiet: true });
}

/** Polls a ticket; 'confirmed' logs this browser in. An unknown ticket counts as expired. */
export async function pollQrTicket(ticket: string): Promise<QrStatus> {
  try {
    const answer = await apiGet<{ status: QrStatus; token?: string; user?: UserInfo }>(
      '/passport/qr/status',
      { ticket },
      { quiet: true },
    );
    if (answer.status === 'confirmed' && answer.token && answer.user) {
      completeLogin({ token: answer.token, user: answer.user });
      return 'confirmed';
    }
    return answer.status === 'confirmed' ? 'expired' : answer.status;
  } catch (error) {
    if ((error as ApiFailure).status === 404) return 'expired';
    throw error;
  }
}

/** Reloads the page so its server-rendered parts follow the new login state. */
export function reloadPage(): void {
  globalThis.location?.reload();
}

/**
 * Logs out: the server revokes the token and clears its cookie; locally userInfo, token, local and
 * session storage are cleared. With `saveLoginInfo` on, the remembered email is written back.
 */
export async function logout({
  saveLoginInfo = $saveLoginInfo.get(),
}: { saveLoginInfo?: boolean } = {}): Promise<void> {
  const email = saveLoginInfo ? rememberedEmail() : null;
  // Already revoked or offline: leaving locally is still right.
  await apiPost('/passport/logout', {}, { quiet: true }).catch(() => {});
  clearLocalSession({ keepEmail: email });
  reloadPage();
}

/**
 * 注销账号 was asked for: the server has ended every session of the account already; this browser forgets it as a
 * logout does (the remembered email stays, so logging in again to take it back is one step) and opens the home page.
 */
export function leaveAfterDeletion(message: string): void {
  clearLocalSession({ keepEmail: rememberedEmail() });
  // After the clearing, which empties session storage too.
  setFlash(message);
  globalThis.location?.assign('/');
}

/**
 * 退出所有设备: the server revokes every session of the user, this browser's included, and clears its cookie; then
 * this browser forgets the session as a logout does and opens the home page. A refusal (offline) throws and keeps the
 * session, so the page can say so.
 */
export async function logoutEverywhere({
  saveLoginInfo = $saveLoginInfo.get(),
}: { saveLoginInfo?: boolean } = {}): Promise<void> {
  const email = saveLoginInfo ? rememberedEmail() : null;
  await apiPost('/passport/logout/all', {}, { quiet: true });
  clearLocalSession({ keepEmail: email });
  globalThis.location?.assign('/');
}
