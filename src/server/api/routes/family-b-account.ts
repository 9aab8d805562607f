/** Family B accounts: password and e-mailed-code login over the same auth services and limits as Family A's passport, and userInfo. */
import { z } from 'zod';
import { loginWithCode, requestLoginCode } from '../../services/auth/codes.ts';
import type { LoginResult } from '../../services/auth/login.ts';
import { loginWithPassword } from '../../services/auth/password.ts';
import { getById } from '../../services/users.ts';
import { ApiError, okB } from '../envelope.ts';
import { readRoute } from '../family-b-door.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { authContext, codeField, credentials, emailField, passwordField, setLoginCookie } from '../login-door.ts';
import { id } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB, loginB, userB } from '../schemas.ts';
import { loginB as shapeLoginB, userB as shapeUserB } from '../shape.ts';

/** A login's answer: the token in data, the session cookie on the response. */
function loginAnswer(context: RequestContext, headers: Headers, r: LoginResult) {
  setLoginCookie(context, headers, r);
  return okB(shapeLoginB(r));
}

export const familyBAccountRoutes = [
  route({
    method: 'POST',
    path: '/auth/login',
    family: 'B',
    auth: false,
    summary:
      'Log in with e-mail and password (the limits of /passport/login/password); data has the token for the Token header, the session cookie is set too',
    input: z.object({ email: emailField(), password: passwordField() }),
    response: bodyB(loginB),
    handler: async ({ input, headers, ...ctx }) =>
      loginAnswer(
        ctx.context,
        headers,
        await credentials(() => loginWithPassword(input.email, input.password, authContext(ctx))),
      ),
  }),
  route({
    method: 'POST',
    path: '/auth/sendCode',
    family: 'B',
    auth: false,
    summary: 'E-mail a 6-digit login code (one per 60 s per address, as /passport/code/send); retryAfter is in seconds',
    input: z.object({ email: emailField() }),
    response: bodyB(z.object({ retryAfter: z.number().int() })),
    handler: async ({ input, ...ctx }) => okB(await requestLoginCode(input.email, authContext(ctx))),
  }),
  route({
    method: 'POST',
    path: '/auth/loginByCode',
    family: 'B',
    auth: false,
    summary:
      'Log in with an e-mailed code (as /passport/login/code); the first code login of an address creates its account (created)',
    input: z.object({ email: emailField(), code: codeField() }),
    response: bodyB(loginB),
    handler: async ({ input, headers, ...ctx }) =>
      loginAnswer(
        ctx.context,
        headers,
        await credentials(() => loginWithCode(input.email, input.code, authContext(ctx))),
      ),
  }),
  ...readRoute({
    path: '/user/userInfo',
    auth: false,
    summary: "The user named by userId, else the logged-in viewer (401 without either); collectCount only on one's own",
    input: z.object({ userId: id().optional() }),
    response: bodyB(userB),
    handler: async ({ input, viewer }) => {
      const userId = input.userId ?? viewer?.id;
      if (userId === undefined) throw new ApiError(401, 'error.unauthorized');
      const user = await getById(userId, viewer?.id ?? null);
      if (!user) throw new ApiError(404, 'error.userNotFound');
      return okB(shapeUserB(user, user.id === viewer?.id));
    },
  }),
];
