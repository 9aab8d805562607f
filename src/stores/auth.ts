import { atom, map } from 'nanostores';
import { SESSION_ENDED_EVENT } from '../shared/wake-events.ts';

/** The spec's auth store: whether someone is logged in, and a key bumped at each login or logout so islands can start afresh. */
export const $auth = map({ isLogin: false, routerKey: 0 });

/**
 * True once the session this page was rendered with has ended (expired, or revoked elsewhere): the header and the
 * islands drop the viewer's state at once, without a reload. A login reloads the page, so it never turns back.
 */
export const $sessionEnded = atom(false);

/** Whether the login dialog is open; any island may ask for it through `openLogin()`. */
export const $loginOpen = atom(false);

/** Seconds until another code may be requested (60 s after a request); 0 when one may be. */
export const $codeCountdown = atom(0);

/** localStorage key of the user store; here so the header can spot a saved session without loading the API client. */
export const USER_KEY = 'sy.user';

/** The session token saved in this browser, read from storage without the user store (it may have expired: only the server can tell). */
export function savedToken(): string | null {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(USER_KEY) ?? 'null') as { token?: unknown } | null;
    return typeof saved?.token === 'string' ? saved.token : null;
  } catch {
    return null;
  }
}

/** The name and avatar of the saved login, read from storage without the user store (the header draws them before the API answers). */
export function savedLogin(): { nickname: string; avatar: string } | null {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(USER_KEY) ?? 'null') as {
      token?: unknown;
      userInfo?: {
        nickname?: unknown;
        avatar_thumb?: { url_list?: unknown[] };
        avatar_300x300?: { url_list?: unknown[] };
      } | null;
    } | null;
    if (typeof saved?.token !== 'string') return null;
    const info = saved.userInfo ?? {};
    const avatar = (info.avatar_thumb ?? info.avatar_300x300)?.url_list?.[0];
    return {
      nickname: typeof info.nickname === 'string' ? info.nickname : '',
      avatar: typeof avatar === 'string' ? avatar : '',
    };
  } catch {
    return null;
  }
}

/** Whether this browser holds a saved session token. */
export function hasSavedToken(): boolean {
  return savedToken() !== null;
}

/**
 * Whether this browser holds a session: a saved token, or the session cookie this page was rendered for (or, on a page
 * every viewer shares, the cookie's hint), while that session lasts. The cookie alone is enough for the API (same-origin requests carry it), and it is all a browser has
 * whose storage was cleared, evicted or blocked since the login; such a page's header shows the viewer, not 登录.
 */
export function hasSession(): boolean {
  const doc = globalThis.document;
  // data-member: a page every viewer shares found a session before first paint (the saved token, or the cookie's hint).
  const page =
    doc?.body?.hasAttribute('data-viewer') === true || doc?.documentElement?.hasAttribute('data-member') === true;
  return hasSavedToken() || (!$sessionEnded.get() && page);
}

/** Asks for the login dialog (the header's login host hydrates on `sy:hydrate-login`, then lazy-loads and shows it). */
export function openLogin(): void {
  $loginOpen.set(true);
  globalThis.dispatchEvent?.(new Event('sy:hydrate-login'));
}

/** True when this browser holds a session; otherwise the login dialog opens (anonymous viewers who act log in first). */
export function requireLogin(): boolean {
  if (hasSession()) return true;
  openLogin();
  return false;
}

/** Closes the login dialog. */
export function closeLogin(): void {
  $loginOpen.set(false);
}

/** Sets the login state; a change bumps `routerKey`. */
export function setLoggedIn(isLogin: boolean): void {
  const { isLogin: was, routerKey } = $auth.get();
  if (was !== isLogin) $auth.set({ isLogin, routerKey: routerKey + 1 });
}

/** The session is over in this browser: isLogin false, `routerKey` bumped, and, on a page rendered for a viewer, every island woken. */
export function endSession(): void {
  const { routerKey } = $auth.get();
  $auth.set({ isLogin: false, routerKey: routerKey + 1 });
  if ($sessionEnded.get()) return;
  $sessionEnded.set(true);
  // A page every viewer shares shows the visitor's parts again.
  globalThis.document?.documentElement?.removeAttribute('data-member');
  if (globalThis.document?.body?.hasAttribute('data-viewer')) globalThis.dispatchEvent(new Event(SESSION_ENDED_EVENT));
}

let ticker: ReturnType<typeof setInterval> | undefined;

/** Starts the resend countdown from `seconds`, decremented each second down to 0. */
export function startCodeCountdown(seconds = 60): void {
  clearInterval(ticker);
  const from = Math.max(0, Math.ceil(seconds));
  $codeCountdown.set(from);
  if (from === 0) return;
  ticker = setInterval(() => {
    const next = $codeCountdown.get() - 1;
    $codeCountdown.set(Math.max(0, next));
    if (next <= 0) clearInterval(ticker);
  }, 1000);
}
