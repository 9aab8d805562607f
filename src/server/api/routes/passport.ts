/** Accounts: password, e-mailed code and QR login, logout and password change, over src/server/services/auth/. */
import { z } from 'zod';
import { demoCredentials } from '../../services/auth/accounts.ts';
import { loginWithCode, requestLoginCode } from '../../services/auth/codes.ts';
import { logout, type AuthContext, type LoginResult } from '../../services/auth/login.ts';
import { changePassword, loginWithPassword } from '../../services/auth/password.ts';
import { cancelQrTicket, confirmQrTicket, createQrTicket, qrStatus, scanQrTicket } from '../../services/auth/qr.ts';
import { ServiceError } from '../../services/errors.ts';
import { SESSION_COOKIE } from '../../services/sessions.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { mediaUrl } from '../../media-url.ts';
import { ApiError, okA } from '../envelope.ts';
import { qrSvg } from '../qr-svg.ts';
import { route } from '../registry.ts';
import { bodyA, urlList } from '../schemas.ts';

const email = () => z.string().max(320);
const ticket = () => z.string().min(1).max(100).regex(/^[\w-]+$/);
const loginUser = z.object({ uid: z.string(), sec_uid: z.string(), nickname: z.string(), avatar_thumb: urlList });
const loginBody = bodyA({ token: z.string(), expires_at: z.number().int(), created: z.boolean(), user: loginUser });

function ctxOf(request: Request, clientAddress: string): AuthContext {
  return { ip: clientAddress, userAgent: request.headers.get('user-agent') ?? undefined };
}

function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

/** The HttpOnly session cookie that lets server-rendered pages know the user. */
function sessionCookie(request: Request, value: string, maxAge: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${isSecure(request) ? '; Secure' : ''}`;
}

function loginAnswer(request: Request, headers: Headers, r: LoginResult) {
  const maxAge = Math.max(0, Math.floor((r.expiresAt.getTime() - Date.now()) / 1000));
  headers.append('set-cookie', sessionCookie(request, r.token, maxAge));
  return okA({
    token: r.token,
    expires_at: Math.floor(r.expiresAt.getTime() / 1000),
    created: r.created,
    user: { uid: String(r.user.id), sec_uid: r.user.secUid, nickname: r.user.nickname, avatar_thumb: { url_list: [mediaUrl(r.user.avatar)] } },
  });
}

// A failed login is not an expired session: keep the service's own message on the 401 (the client shows it in the form).
async function credentials<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'unauthorized') throw new ApiError(401, error.key, error.vars);
    throw error;
  }
}

function bearer(request: Request): string {
  return request.headers.get('token')?.trim() ?? '';
}

export const passportRoutes = [
  route({
    method: 'POST',
    path: '/passport/login/password',
    family: 'A',
    auth: false,
    summary: 'Log in with e-mail and password; answers a token and sets the session cookie',
    input: z.object({ email: email(), password: z.string().max(1000) }),
    response: loginBody,
    handler: async ({ input, request, headers, clientAddress }) =>
      loginAnswer(request, headers, await credentials(() => loginWithPassword(input.email, input.password, ctxOf(request, clientAddress)))),
  }),
  route({
    method: 'POST',
    path: '/passport/code/send',
    family: 'A',
    auth: false,
    summary: 'E-mail a 6-digit login code (one per 60 s per address)',
    input: z.object({ email: email() }),
    response: bodyA({ retry_after: z.number().int() }),
    handler: async ({ input, request, clientAddress }) => {
      const r = await requestLoginCode(input.email, ctxOf(request, clientAddress));
      return okA({ retry_after: r.retryAfter });
    },
  }),
  route({
    method: 'POST',
    path: '/passport/login/code',
    family: 'A',
    auth: false,
    summary: 'Log in with an e-mailed code; the first code login creates the account',
    input: z.object({ email: email(), code: z.string().max(20) }),
    response: loginBody,
    handler: async ({ input, request, headers, clientAddress }) =>
      loginAnswer(request, headers, await credentials(() => loginWithCode(input.email, input.code, ctxOf(request, clientAddress)))),
  }),
  route({
    method: 'POST',
    path: '/passport/qr/create',
    family: 'A',
    auth: false,
    summary: 'A one-time QR login ticket (2 minutes) with its QR code as SVG',
    input: z.object({}),
    response: bodyA({ ticket: z.string(), url: z.string(), svg: z.string(), expires_at: z.number().int() }),
    handler: async ({ request, clientAddress }) => {
      const t = await createQrTicket(ctxOf(request, clientAddress));
      // The phone that scans it must reach this server: PUBLIC_URL, else the host and port the dialog reached.
      const url = `${publicOrigin(request)}/passport/qr?ticket=${t.ticket}`;
      return okA({ ticket: t.ticket, url, svg: qrSvg(url), expires_at: Math.floor(t.expiresAt.getTime() / 1000) });
    },
  }),
  route({
    method: 'GET',
    path: '/passport/qr/status',
    family: 'A',
    auth: false,
    summary: 'State of a QR ticket; the first answer after confirmation carries the token once and sets the cookie',
    input: z.object({ ticket: ticket() }),
    response: bodyA({ status: z.enum(['pending', 'scanned', 'confirmed', 'expired']), token: z.string().optional(), user: loginUser.optional() }),
    handler: async ({ input, request, headers, clientAddress }) => {
      const r = await qrStatus(input.ticket, ctxOf(request, clientAddress));
      if (!r.login) return okA({ status: r.status });
      const answer = loginAnswer(request, headers, r.login);
      return okA({ status: r.status, token: answer.token, user: answer.user });
    },
  }),
  ...(['scan', 'confirm', 'cancel'] as const).map((action) =>
    route({
      method: 'POST',
      path: `/passport/qr/${action}`,
      family: 'A',
      auth: true,
      summary: `The logged-in phone-side browser ${action}s a QR ticket`,
      input: z.object({ ticket: ticket() }),
      response: bodyA({}),
      handler: async ({ input, viewer }) => {
        if (action === 'scan') await scanQrTicket(input.ticket, viewer.id);
        else if (action === 'confirm') await confirmQrTicket(input.ticket, viewer.id);
        else await cancelQrTicket(input.ticket);
        return okA({});
      },
    }),
  ),
  route({
    method: 'POST',
    path: '/passport/logout',
    family: 'A',
    auth: true,
    summary: 'Revoke the current token server-side and clear the session cookie',
    input: z.object({}),
    response: bodyA({}),
    handler: async ({ request, headers }) => {
      await logout(bearer(request));
      headers.append('set-cookie', sessionCookie(request, '', 0));
      return okA({});
    },
  }),
  route({
    method: 'POST',
    path: '/passport/password',
    family: 'A',
    auth: true,
    summary: 'Set a first password or change it (other sessions are signed out on a change)',
    input: z.object({ current: z.string().max(1000).optional(), next: z.string().max(1000) }),
    response: bodyA({ revoked_sessions: z.number().int() }),
    handler: async ({ input, viewer, request }) => {
      const r = await changePassword(viewer.id, { current: input.current || undefined, next: input.next }, { token: bearer(request) });
      return okA({ revoked_sessions: r.revokedSessions });
    },
  }),
  route({
    method: 'GET',
    path: '/passport/demo',
    family: 'A',
    auth: false,
    summary: 'The demo account the password tab pre-fills, while the demo seed is in place',
    input: z.object({}),
    response: bodyA({ email: z.string().nullable(), password: z.string().optional() }),
    handler: async () => {
      const demo = await demoCredentials();
      return demo ? okA({ email: demo.email, password: demo.password }) : okA({ email: null });
    },
  }),
];
