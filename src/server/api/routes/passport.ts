/** Accounts: password, e-mailed code and QR login, logout and password change, over src/server/services/auth/. */
import { z } from 'zod';
import { demoCredentials } from '../../services/auth/accounts.ts';
import { loginWithCode, requestLoginCode } from '../../services/auth/codes.ts';
import { logout, logoutEverywhere, type LoginResult } from '../../services/auth/login.ts';
import { changePassword, loginWithPassword } from '../../services/auth/password.ts';
import { cancelQrTicket, confirmQrTicket, createQrTicket, qrStatus, scanQrTicket } from '../../services/auth/qr.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { mediaUrl } from '../../media-url.ts';
import { okA } from '../envelope.ts';
import {
  authContext,
  codeField,
  credentials,
  emailField,
  passwordField,
  clearLoginCookies,
  setLoginCookie,
} from '../login-door.ts';
import { qrSvg } from '../qr-svg.ts';
import { route } from '../registry.ts';
import { sessionToken } from '../session-token.ts';
import { bodyA, urlList } from '../schemas.ts';

const ticket = () =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/);
const loginUser = z.object({ uid: z.string(), sec_uid: z.string(), nickname: z.string(), avatar_thumb: urlList });
const loginBody = bodyA({
  token: z.string(),
  expires_at: z.number().int(),
  created: z.boolean(),
  /** The account was waiting to be deleted (注销) and this login cancelled that. */
  deletion_cancelled: z.boolean(),
  user: loginUser,
});

function loginAnswer(request: Request, headers: Headers, r: LoginResult) {
  setLoginCookie(request, headers, r);
  return okA({
    token: r.token,
    expires_at: Math.floor(r.expiresAt.getTime() / 1000),
    created: r.created,
    deletion_cancelled: r.deletionCancelled,
    user: {
      uid: String(r.user.id),
      sec_uid: r.user.secUid,
      nickname: r.user.nickname,
      avatar_thumb: { url_list: [mediaUrl(r.user.avatar)] },
    },
  });
}

/** The token that authorised this request (the header, or the cookie of a page of this site): the one logout revokes. */
function bearer(request: Request): string {
  return sessionToken(request, request.method, 'A') ?? '';
}

export const passportRoutes = [
  route({
    method: 'POST',
    path: '/passport/login/password',
    family: 'A',
    auth: false,
    summary: 'Log in with e-mail and password; answers a token and sets the session cookie',
    input: z.object({ email: emailField(), password: passwordField() }),
    response: loginBody,
    handler: async ({ input, request, headers, clientAddress }) =>
      loginAnswer(
        request,
        headers,
        await credentials(() => loginWithPassword(input.email, input.password, authContext(request, clientAddress))),
      ),
  }),
  route({
    method: 'POST',
    path: '/passport/code/send',
    family: 'A',
    auth: false,
    summary: 'E-mail a 6-digit login code (one per 60 s per address)',
    input: z.object({ email: emailField() }),
    response: bodyA({ retry_after: z.number().int() }),
    handler: async ({ input, request, clientAddress }) => {
      const r = await requestLoginCode(input.email, authContext(request, clientAddress));
      return okA({ retry_after: r.retryAfter });
    },
  }),
  route({
    method: 'POST',
    path: '/passport/login/code',
    family: 'A',
    auth: false,
    summary: 'Log in with an e-mailed code; the first code login creates the account',
    input: z.object({ email: emailField(), code: codeField() }),
    response: loginBody,
    handler: async ({ input, request, headers, clientAddress }) =>
      loginAnswer(
        request,
        headers,
        await credentials(() => loginWithCode(input.email, input.code, authContext(request, clientAddress))),
      ),
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
      const t = await createQrTicket(authContext(request, clientAddress));
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
    // The ticket was created a moment ago by this same browser, and the phone confirms it on the primary.
    readsOwnWrites: true,
    input: z.object({ ticket: ticket() }),
    response: bodyA({
      status: z.enum(['pending', 'scanned', 'confirmed', 'expired']),
      token: z.string().optional(),
      user: loginUser.optional(),
    }),
    handler: async ({ input, request, headers, clientAddress }) => {
      const r = await qrStatus(input.ticket, authContext(request, clientAddress));
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
      ownOnly: true,
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
    ownOnly: true,
    summary: 'Revoke the current token server-side and clear the session cookie',
    input: z.object({}),
    response: bodyA({}),
    handler: async ({ request, headers }) => {
      await logout(bearer(request));
      clearLoginCookies(request, headers);
      return okA({});
    },
  }),
  route({
    method: 'POST',
    path: '/passport/logout/all',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: '退出所有设备: revoke every session of the user, this one included, and clear the session cookie',
    input: z.object({}),
    response: bodyA({ revoked_sessions: z.number().int() }),
    handler: async ({ viewer, request, headers }) => {
      const revoked = await logoutEverywhere(viewer.id);
      clearLoginCookies(request, headers);
      return okA({ revoked_sessions: revoked });
    },
  }),
  route({
    method: 'POST',
    path: '/passport/password',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Set a first password or change it (other sessions are signed out on a change)',
    input: z.object({ current: passwordField().optional(), next: passwordField() }),
    response: bodyA({ revoked_sessions: z.number().int() }),
    handler: async ({ input, viewer, request }) => {
      const r = await changePassword(
        viewer.id,
        { current: input.current || undefined, next: input.next },
        { token: bearer(request) },
      );
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
