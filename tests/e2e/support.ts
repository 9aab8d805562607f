/** What several specs need: the demo account's session, and a browser context logged in with a session. */
import { expect, test, type APIRequestContext, type BrowserContext } from '@playwright/test';

export interface Session {
  token: string;
  user: { uid: string; sec_uid: string; nickname: string };
}

/**
 * Logs the demo account in with its password through `api`. Call it once per file (beforeAll): the server allows
 * 10 password logins per 5 minutes per IP, shared with every other spec.
 */
export async function loginDemo(api: APIRequestContext): Promise<Session> {
  const credentials = await (await api.get('/api/passport/demo')).json();
  expect(credentials.email, 'the e2e server runs with the demo seed').toBeTruthy();
  const login = await api.post('/api/passport/login/password', { form: { email: credentials.email, password: credentials.password } });
  expect(login.status()).toBe(200);
  return (await login.json()) as Session;
}

/** Logs `context` in as `session`: the session cookie, and the token where the login dialog keeps it. */
export async function signIn(context: BrowserContext, session: { token: string; user: unknown }): Promise<void> {
  const baseURL = test.info().project.use.baseURL!;
  await context.addCookies([{ name: 'sy_session', value: session.token, url: baseURL }]);
  await context.addInitScript(([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })), [session.token, session.user] as const);
}
