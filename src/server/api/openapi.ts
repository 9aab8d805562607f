/** The OpenAPI 3.1 document, built from the route registry's own zod schemas so that it cannot drift from the code. */
import { z } from 'zod';
import { A_STATUS_CODE } from './envelope.ts';
import type { Route } from './registry.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
}

const errorA = {
  type: 'object',
  properties: {
    status_code: { type: 'integer', enum: [...new Set(Object.values(A_STATUS_CODE))] },
    status_msg: { type: 'string' },
  },
  required: ['status_code', 'status_msg'],
};
const errorB = {
  type: 'object',
  properties: { code: { type: 'string' }, msg: { type: 'string' }, data: { type: 'null' } },
  required: ['code', 'msg', 'data'],
};

/** Query parameters of a GET route, one per property of its input object. */
function parameters(route: Route): object[] {
  const schema = schemaOf(route.input, 'input');
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

/** A body schema without the file fields, for the encodings that cannot carry files. */
function withoutFiles(body: JsonSchema, files: Record<string, number>): JsonSchema {
  const properties = { ...(body.properties as Record<string, JsonSchema>) };
  for (const name of Object.keys(files)) delete properties[name];
  return { ...body, properties, required: ((body.required ?? []) as string[]).filter((n) => !(n in files)) };
}

function operation(route: Route): object {
  const error = { content: { 'application/json': { schema: route.family === 'A' ? errorA : errorB } } };
  const responses: Record<string, object> = {
    200: { description: 'OK', content: { 'application/json': { schema: schemaOf(route.response, 'output') } } },
    400: { description: 'Bad input', ...error },
    404: { description: 'Not found', ...error },
    413: { description: route.files ? 'A file over its cap (see the summary)' : 'Body over 1 MB', ...error },
    429: { description: 'Too many requests (Retry-After)', ...error },
    500: { description: 'Server error', ...error },
  };
  if (route.auth || route.method === 'POST') responses[401] = { description: 'Not logged in', ...error };
  const op: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    tags: [route.family === 'A' ? 'Douyin-compatible API' : 'Site API'],
    responses,
  };
  if (route.auth) op.security = [{ token: [] }, { cookie: [] }];
  if (route.idempotent) {
    responses[409] = { description: 'The Idempotency-Key was used for another request', ...error };
    responses[503] = {
      description: 'The database is switching over: send again with the same Idempotency-Key (Retry-After)',
      ...error,
    };
    op.parameters = [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'A key of the client for this write (8-128 of A-Z a-z 0-9 _ -): sent again with the same key and fields within a day, the write is not made twice and the answer is the first one (header Idempotent-Replayed: true)',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$' },
      },
    ];
  }
  if (route.method === 'GET') {
    op.parameters = parameters(route);
  } else {
    const body = schemaOf(route.input, 'input');
    // Files travel only in multipart bodies; the other fields may come in any of the three.
    op.requestBody = {
      required: false,
      content: {
        'application/x-www-form-urlencoded': { schema: route.files ? withoutFiles(body, route.files) : body },
        'multipart/form-data': { schema: body },
        'application/json': { schema: route.files ? withoutFiles(body, route.files) : body },
      },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of `routes`. */
export function buildOpenApi(routes: Route[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: '闪映 API',
      version: '1.0.0',
      description:
        'The Douyin-compatible API (Family A in the code) mirrors douyin.com web (`status_code` 0 on success; 2 bad input, 8 not logged in, 9 forbidden, 4 not found, 5 method, 6 too large, 7 rate limited, 1 server error). The site API (Family B) answers `{code, msg, data}` with string codes. An optional parameter sent empty (`cursor=`) counts as absent; a required one sent empty is a 400. Reads take the Token header or the session cookie. Writes (POST) need the Token header, or on the Douyin-compatible API the session cookie with an Origin (else Referer) of this site or of CORS_ORIGINS; a request naming neither is refused with 401.',
    },
    servers: [{ url: '/api' }],
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'Token' },
        cookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sy_session',
          description: 'Reads; Family A writes only with an Origin or Referer of this site or of CORS_ORIGINS',
        },
      },
    },
    paths,
  };
}
