/** What every login route of both families shares: the caller's context, the session cookie, a failed login's own message. */
import { z } from 'zod';
import type { AuthContext, LoginResult } from '../services/auth/login.ts';
import { ServiceError } from '../errors.ts';
import { DEVICE_COOKIE, DEVICE_TTL_MS } from '../services/auth/devices.ts';
import { cookieValue, memberHintHeader, sessionCookieHeader, type RequestContext } from '../http/request-context.ts';
import { ApiError } from './envelope.ts';
import type { RouteContext } from './registry.ts';

// Door caps only: the auth services judge an address or a code and answer in Chinese (邮箱不能为空, 验证码格式不正确, ...).
/** The e-mail field of a login form. */
export const emailField = () => z.string().max(320);
/** A password field; the service caps the length it accepts. */
export const passwordField = () => z.string().max(1000);
/** An e-mailed login code field. */
export const codeField = () => z.string().max(20);

/** The address and browser a login is made from (per-IP limits, the session's label) and the session it replaces. */
export function authContext({
  request,
  context,
  clientAddress,
}: Pick<RouteContext<unknown, unknown>, 'request' | 'context' | 'clientAddress'>): AuthContext {
  return {
    ip: clientAddress,
    userAgent: request.headers.get('user-agent') ?? undefined,
    // Any session the browser presents, header or cookie: logging in ends it.
    previousToken: context.sessionToken,
    deviceToken: cookieValue(request.headers.get('cookie'), deviceCookieName(context)),
  };
}

/** The device cookie's name (services/auth/devices.ts); `__Secure-` over HTTPS, so that plain HTTP cannot set it. */
function deviceCookieName(context: RequestContext): string {
  return context.https ? `__Secure-${DEVICE_COOKIE}` : DEVICE_COOKIE;
}

/**
 * The device cookie a login leaves in the browser: sent only to the API (pages and their cache never see it), HttpOnly,
 * living as long as the server remembers the browser.
 */
function deviceCookie(context: RequestContext, token: string): string {
  const secure = context.https ? '; Secure' : '';
  const maxAge = Math.floor(DEVICE_TTL_MS / 1000);
  return `${deviceCookieName(context)}=${token}; Path=/api/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The HttpOnly session cookie that lets server-rendered pages know the user; Max-Age 0 clears it. */
export function sessionCookie(context: RequestContext, value: string, maxAge: number): string {
  return sessionCookieHeader(context, value, maxAge);
}

/**
 * Sets the session cookie of a successful login on the answer, and its member hint, living as long as its token; and
 * the browser's device cookie, which a logout leaves (the browser stays one the account's owner has used).
 */
export function setLoginCookie(context: RequestContext, headers: Headers, r: LoginResult): void {
  const maxAge = Math.max(0, Math.floor((r.expiresAt.getTime() - Date.now()) / 1000));
  headers.append('set-cookie', sessionCookie(context, r.token, maxAge));
  headers.append('set-cookie', memberHintHeader(context, maxAge));
  headers.append('set-cookie', deviceCookie(context, r.deviceToken));
}

/** Clears the session cookie and its member hint (a logout). */
export function clearLoginCookies(context: RequestContext, headers: Headers): void {
  headers.append('set-cookie', sessionCookie(context, '', 0));
  headers.append('set-cookie', memberHintHeader(context, 0));
}

/** Runs a login; a refusal is not an expired session, so its 401 keeps the service's message (the client shows it in the form). */
export async function credentials<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'unauthorized') throw new ApiError(401, error.key, error.vars);
    throw error;
  }
}
