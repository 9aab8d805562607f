/**
 * Headers anyone can send change nothing without TRUST_PROXY. Against the built server (server.ts, where the request
 * context is read once), a request carrying `X-Forwarded-Proto: https`, a foreign `X-Forwarded-Host` and, where
 * PUBLIC_URL names the site, a foreign Host, is answered at every door as the same request without them: the QR code's
 * address, the session cookie's name (which one is read, which one is set), HSTS, and which pages may write with the
 * cookie stay what the settings say.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { users } from '../../src/server/db/schema.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { grantRole, revokeRole } from '../../src/server/staff/roles.ts';
import { startBuiltServer, type BuiltServer } from './built-server.ts';

/** What a client may claim about how it reached the site, with nobody in front to vouch for it. */
const CLAIMS = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-for': '203.0.113.9',
};
const PUBLIC_URL = 'https://sy.example.org';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with exactly these headers (Host included); an event stream is read only up to its headers. */
function send(
  server: BuiltServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode!, headers: res.headers, body: '' });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const cookieName = (answer: Answer) => /^([^=]+)=/.exec(String(answer.headers['set-cookie']?.[0]))?.[1];

let demo: { id: number; nickname: string };
/** A fresh session of the demo account on the server's database. */
const session = async () => (await createSession(demo.id)).token;

async function demoUser(): Promise<{ id: number; nickname: string }> {
  const { db } = await import('../../src/server/db/client.ts');
  const [row] = await db()
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(eq(users.isDemo, true))
    .limit(1);
  return row!;
}

/**
 * Every door, asked once as the settings describe the site (`plain`) and once with the client's claims added
 * (`claimed`): both must be answered alike. `host` is the Host a browser sends; `cookie` the name the settings give.
 */
function doors(
  name: string,
  start: () => Promise<BuiltServer>,
  site: { host: string; cookie: string; origin: string },
) {
  describe(name, () => {
    let server: BuiltServer;
    let host: string;
    let claimed: Record<string, string>;
    const other = (cookie: string) => (cookie === 'sy_session' ? '__Host-sy_session' : 'sy_session');

    beforeAll(async () => {
      server = await start();
      demo ??= await demoUser();
      host = site.host || `127.0.0.1:${server.port}`;
      // With PUBLIC_URL the Host is the client's word too: a foreign one is claimed as well.
      claimed = { ...CLAIMS, host: site.host ? 'evil.example' : host };
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });
    const origin = () => site.origin || `http://${host}`;

    it('API: the QR code leads to the same address', async () => {
      const plain = await send(server, 'POST', '/api/passport/qr/create', { host });
      const forged = await send(server, 'POST', '/api/passport/qr/create', claimed);
      const url = (a: Answer) => (JSON.parse(a.body) as { url: string }).url.replace(/ticket=.*$/, 'ticket=');
      expect(url(plain)).toBe(`${origin()}/passport/qr?ticket=`);
      expect(url(forged)).toBe(url(plain));
    });

    it('API: the session cookie keeps its name, set and read', async () => {
      for (const headers of [{ host }, claimed]) {
        const out = await send(server, 'POST', '/api/passport/logout', { ...headers, token: await session() });
        expect(cookieName(out)).toBe(site.cookie);
        // The member hint beside it is Secure exactly when the session cookie is.
        const hint = out.headers['set-cookie']?.find((c) => c.startsWith('sy_member='));
        expect(hint).toBeDefined();
        expect(/; Secure/.test(hint!)).toBe(site.cookie.startsWith('__Host-'));
        const token = await session();
        const read = (cookie: string) =>
          send(server, 'GET', '/api/aweme/v1/web/user/profile/self/', { ...headers, cookie: `${cookie}=${token}` });
        expect(JSON.parse((await read(site.cookie)).body).status_code).toBe(0);
        expect(JSON.parse((await read(other(site.cookie))).body).status_code).not.toBe(0);
      }
    });

    it('API: a cookie write is taken from a page of the site, and from nowhere the client claims', async () => {
      const digg = async (headers: Record<string, string>, from: string) =>
        send(
          server,
          'POST',
          '/api/aweme/v1/web/commit/item/digg/',
          { ...headers, ...form, origin: from, cookie: `${site.cookie}=${await session()}` },
          'aweme_id=1&type=1',
        );
      expect((await digg({ host }, origin())).status).toBe(200);
      expect((await digg(claimed, origin())).status).toBe(200);
      expect((await digg(claimed, 'https://evil.example')).status).toBe(401);
      expect((await digg(claimed, 'http://evil.example')).status).toBe(401);
    });

    it('staff API: a write is taken from a page of the site, and from nowhere the client claims', async () => {
      await grantRole(null, demo.id, 'editor');
      const preview = async (headers: Record<string, string>, from: string) =>
        send(
          server,
          'POST',
          '/api/admin/content/preview',
          { ...headers, ...form, origin: from, token: await session() },
          'body=hello',
        );
      try {
        expect((await preview({ host }, origin())).status).toBe(200);
        expect((await preview(claimed, origin())).status).toBe(200);
        expect((await preview(claimed, 'https://evil.example')).status).toBe(403);
        expect((await preview(claimed, 'http://evil.example')).status).toBe(403);
      } finally {
        await revokeRole(null, demo.id, 'editor');
      }
    });

    it('pages: the same cookie logs in, the other does not, and HSTS follows the settings only', async () => {
      const token = await session();
      const signedIn = t('menu.account', { nickname: demo.nickname });
      // A page about the viewer (a page of public content is the visitor's for everyone, whatever the cookie).
      for (const headers of [{ host }, claimed]) {
        const mine = await send(server, 'GET', '/follow', { ...headers, cookie: `${site.cookie}=${token}` });
        expect(mine.status).toBe(200);
        expect(mine.body).toContain(signedIn);
        const planted = await send(server, 'GET', '/follow', { ...headers, cookie: `${other(site.cookie)}=${token}` });
        expect(planted.body).not.toContain(signedIn);
        expect(planted.headers['cache-control']).toMatch(/^public/);
        expect(mine.headers['strict-transport-security'] !== undefined).toBe(site.cookie.startsWith('__Host-'));
      }
    });

    it('uploads: tus takes the same cookie and no other', async () => {
      const create = async (headers: Record<string, string>, cookie: string) =>
        send(server, 'POST', '/api/upload', {
          ...headers,
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': `filename ${Buffer.from('a.mp4').toString('base64')}`,
          cookie: `${cookie}=${await session()}`,
        });
      for (const headers of [{ host }, claimed]) {
        const taken = await create(headers, site.cookie);
        expect(taken.status, taken.body).toBe(201);
        // tus answers the upload's address relative to the request, never on a host the client named.
        expect(taken.headers.location).toMatch(/^\/api\/upload\/[\w-]+$/);
        expect((await create(headers, other(site.cookie))).status).toBe(401);
      }
    });

    it('events: the stream opens with the same cookie and no other', async () => {
      for (const headers of [{ host }, claimed]) {
        const token = await session();
        const open = (cookie: string) =>
          send(server, 'GET', '/api/events', { ...headers, cookie: `${cookie}=${token}` });
        const stream = await open(site.cookie);
        expect(stream.status).toBe(200);
        expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
        expect((await open(other(site.cookie))).status).toBe(401);
      }
    });

    it('every log line of a request carries its id: the request log and what was logged while answering it', async () => {
      const sent = await send(server, 'POST', '/api/passport/code/send', { host, ...form }, 'email=ids%40example.com');
      expect(sent.status).toBe(200);
      const parsedLines = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const isRequest = (line: Record<string, unknown>) => 'method' in line && 'bytes' in line;
      // The request log is written once per turn of the server's event loop: wait for its line.
      const request = await vi.waitFor(() => {
        const found = parsedLines().find((line) => isRequest(line) && line.path === '/api/passport/code/send');
        expect(found).toBeDefined();
        return found!;
      });
      const lines = parsedLines();
      const requests = lines.filter(isRequest);
      expect(requests.length).toBeGreaterThan(10);
      expect(requests.every((line) => /^[\da-f-]{36}$/.test(String(line.requestId)))).toBe(true);
      expect(new Set(requests.map((line) => line.requestId)).size).toBe(requests.length);
      const mail = lines.find((line) => String(line.msg).startsWith('mailer:'));
      expect(mail?.requestId).toBeDefined();
      expect(mail?.requestId).toBe(request.requestId);
    });
  });
}

doors('plain http, no PUBLIC_URL, no TRUST_PROXY', () => startBuiltServer({ RATE_LIMIT_IP_FACTOR: '100' }), {
  host: '',
  cookie: 'sy_session',
  origin: '',
});

doors(`PUBLIC_URL=${PUBLIC_URL}, no TRUST_PROXY`, () => startBuiltServer({ RATE_LIMIT_IP_FACTOR: '100', PUBLIC_URL }), {
  host: 'sy.example.org',
  cookie: '__Host-sy_session',
  origin: PUBLIC_URL,
});
