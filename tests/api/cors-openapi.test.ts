/** CORS for listed origins only, and the OpenAPI document generated from the registry. */
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../src/server/api/routes/index.ts';
import { call, ok, useApiDb } from './helpers.ts';

useApiDb();
const FEED = '/api/aweme/v1/web/tab/feed/';

afterEach(() => {
  delete process.env.CORS_ORIGINS;
});

describe('CORS', () => {
  it('allows no origin by default', async () => {
    const res = await call('GET', FEED, { headers: { origin: 'https://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('allows the listed origins with credentials and blocks the others', async () => {
    process.env.CORS_ORIGINS = 'https://app.example, https://admin.example/';
    const allowed = await call('GET', FEED, { headers: { origin: 'https://admin.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const blocked = await call('GET', FEED, { headers: { origin: 'https://evil.example' } });
    expect(blocked.headers.get('access-control-allow-origin')).toBeNull();
    // Errors carry the headers too, so the client can read the envelope.
    const error = await call('GET', '/api/aweme/v1/web/history/read/', { headers: { origin: 'https://app.example' } });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('answers a preflight with the methods and the Token header', async () => {
    process.env.CORS_ORIGINS = 'https://app.example';
    const pre = await call('OPTIONS', '/api/aweme/v1/web/commit/item/digg/', {
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'token,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Token, Content-Type, Idempotency-Key');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    const blocked = await call('OPTIONS', '/api/aweme/v1/web/commit/item/digg/', {
      headers: { origin: 'https://evil.example' },
    });
    expect(blocked.status).toBe(204);
    expect(blocked.headers.get('access-control-allow-origin')).toBeNull();
    expect(blocked.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('openapi.json', () => {
  it('is OpenAPI 3.1 and lists every registered route with its parameters', async () => {
    const doc = await ok('GET', '/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    expect(routes.length).toBeGreaterThan(40);
    for (const r of routes) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema).toBeDefined();
      if (r.auth) expect(op.security).toBeDefined();
    }
    const paths = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(paths.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    const detail = doc.paths['/aweme/v1/web/aweme/detail/'].get;
    expect(detail.parameters).toEqual([
      { name: 'aweme_id', in: 'query', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
    ]);
    const feed = doc.paths['/aweme/v1/web/tab/feed/'].get;
    expect(feed.parameters.find((p: { name: string }) => p.name === 'count').schema).toMatchObject({
      minimum: 1,
      maximum: 50,
    });
    const digg = doc.paths['/aweme/v1/web/commit/item/digg/'].post;
    expect(Object.keys(digg.requestBody.content)).toContain('application/x-www-form-urlencoded');
    expect(digg.responses['200'].content['application/json'].schema.properties.digg_count).toBeDefined();
    // The writes a client may send again say so, with the header's form; the others take no key.
    const keyed = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops as Record<string, { parameters?: { name: string; in: string }[] }>)
        .filter(([, op]) => op.parameters?.some((x) => x.in === 'header' && x.name === 'Idempotency-Key'))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(keyed.sort()).toEqual([
      'POST /aweme/v1/web/comment/publish',
      'POST /aweme/v1/web/im/message/send/',
      'POST /studio/work/create',
    ]);
    expect(doc.paths['/aweme/v1/web/comment/publish'].post.responses['503']).toBeDefined();
  });
});
