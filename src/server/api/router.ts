/** The framework-free API door: one Request in, one Response out, for every route of the registry. */
import { withReplicaReads } from '../db/read-scope.ts';
import { contextOfRequest, fromSitePage, type RequestContext } from '../http/request-context.ts';
import { resolveSession, type Viewer } from '../services/sessions.ts';
import { announceMemberWrite, announceWrite } from '../cache/shared-writes.ts';
import { anonCacheKey, answerResponse, buildAnswerOnce, cachedAnswer } from '../cache/anon-cache.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import { ApiError, errorResponse, familyOfPath, JSON_HEADERS, zodFields, type Family } from './envelope.ts';
import { textResponse } from './json-answer.ts';
import { bodyFields, MAX_BODY, queryFields, withoutEmptyOptionals } from './input.ts';
import { enforceWriteLimits } from '../services/write-limits.ts';
import {
  bodyCap,
  changesSharedContent,
  isWrite,
  pathKey,
  writtenVideos,
  type Route,
  type RouteContext,
} from './registry.ts';
import { routes } from './routes/index.ts';
import { isStaffPath, staffDoor, staffRouteOf } from './staff-door.ts';

const table = new Map<string, Map<string, Route>>();
for (const r of routes) {
  const key = pathKey(r.path);
  const methods = table.get(key) ?? new Map<string, Route>();
  if (methods.has(r.method)) throw new Error(`duplicate API route ${r.method} ${r.path}`);
  methods.set(r.method, r);
  table.set(key, methods);
}

/** The family an API path (with or without `/api`) answers in: its route's, or the one its prefix suggests when unknown. */
export function familyOfApiPath(pathname: string): Family {
  const path = pathname.replace(/^\/api(?=\/|$)/, '') || '/';
  return table.get(pathKey(path))?.values().next().value?.family ?? familyOfPath(path);
}

export interface ApiOptions {
  /** The request's context, as the door it came through read it; made from the Request itself when absent. */
  context?: RequestContext;
  /** Without a context: the socket's peer address (the Astro door, tests). */
  clientAddress?: string;
  /**
   * False when the caller writes successful JSON answers itself (node.ts), from `cachedAnswerOf(response).bytes` or
   * `answerTextOf(response)`: those responses then carry no body of their own.
   */
  jsonBodies?: boolean;
}

function allowOf(methods: Map<string, Route>): string[] {
  const list = [...methods.keys()];
  if (methods.has('GET')) list.push('HEAD');
  return list;
}

/** Answers one /api request. Never throws: every failure becomes the family's error envelope. */
export async function handleApi(request: Request, options: ApiOptions = {}): Promise<Response> {
  const context = options.context ?? contextOfRequest(request, options.clientAddress);
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const path = url.pathname.replace(/^\/api(?=\/|$)/, '') || '/';
  const origin = request.headers.get('origin');
  const cors = corsHeaders(origin);
  // Until the route is known (an unknown path has none): douyin's own prefixes answer in Family A.
  let family = familyOfPath(path);
  let response: Response;
  try {
    response = await dispatch(
      request,
      context,
      url,
      method,
      path,
      origin,
      (f) => (family = f),
      options.jsonBodies ?? true,
    );
  } catch (error) {
    response = errorResponse(family, error, {
      method,
      path,
      ...(context.clientAddress ? { client: context.clientAddress } : {}),
    });
  }
  for (const k in cors) response.headers.set(k, cors[k]!);
  if (method === 'HEAD') return new Response(null, { status: response.status, headers: response.headers });
  return response;
}

/**
 * The session a request to a route of `family` is made with. The Token header always counts. The session cookie counts
 * for reads, and for Family A writes sent from a page of this site or of a CORS_ORIGINS origin: douyin.com's web client
 * sends cookies, not a header, while a cross-site form carries the cookie too and must not write with it.
 */
function sessionFor(context: RequestContext, request: Request, method: string, family: Family): string | undefined {
  const token = context.sessionToken;
  if (!token || context.tokenFromHeader || method === 'GET' || method === 'HEAD') return token;
  return family === 'A' && fromSitePage(context, request.headers) ? token : undefined;
}

async function dispatch(
  request: Request,
  context: RequestContext,
  url: URL,
  method: string,
  path: string,
  origin: string | null,
  setFamily: (f: Family) => void,
  jsonBodies: boolean,
): Promise<Response> {
  const clientAddress = context.clientAddress ?? 'unknown';
  const methods = table.get(pathKey(path));
  if (!methods) throw new ApiError(404, 'error.apiNotFound');
  setFamily(methods.values().next().value!.family);
  // Staff paths are 404 to everyone but staff, whatever the method, before anything else could tell them apart.
  if (isStaffPath(methods)) {
    const staffRoute = staffRouteOf(methods, method);
    const token = sessionFor(context, request, method, staffRoute.family);
    await staffDoor(context, request.headers, method, staffRoute, token);
  }
  const allow = allowOf(methods);

  if (method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: { allow: [...allow, 'OPTIONS'].join(', '), ...preflightHeaders(origin, allow) },
    });
  }
  const route = methods.get(method === 'HEAD' ? 'GET' : method);
  if (!route)
    throw new ApiError(405, 'error.methodNotAllowed', undefined, {
      headers: { allow: [...allow, 'OPTIONS'].join(', ') },
    });
  setFamily(route.family);

  // Refuse a declared oversize body before anything else reads it.
  const maxBody = bodyCap(route, MAX_BODY);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (route.method === 'POST' && declared > maxBody) throw new ApiError(413, 'error.tooLarge');

  const token = sessionFor(context, request, method, route.family);
  const viewer: Viewer | null = token ? await resolveSession(token) : null;
  if (route.auth && !viewer) throw new ApiError(401, 'error.unauthorized');

  const fields =
    route.method === 'GET'
      ? queryFields(url)
      : { ...queryFields(url), ...(await bodyFields(request, { maxBody, files: route.files })) };
  const parsed = route.input.safeParse(withoutEmptyOptionals(route.input, fields));
  if (!parsed.success) throw new ApiError(400, 'error.badRequestFields', zodFields(parsed.error));
  // Counted once the request is well formed: a refused one costs the database nothing.
  if (isWrite(route)) await enforceWriteLimits(viewer?.id ?? null, clientAddress);

  const parts = { request, context, clientAddress, sessionToken: viewer ? token : undefined };
  const run = () => answer(route, parsed.data, viewer, parts, url, jsonBodies);
  return mayReadReplica(route, viewer) ? withReplicaReads(run) : run();
}

/**
 * An anonymous read may be answered from a replica: a visitor has no writes of their own to miss, and they are most
 * of the traffic. A viewer's reads, every write, and a route that reads what the same visitor just wrote (a QR
 * ticket's state) use the primary.
 */
function mayReadReplica(route: Route, viewer: Viewer | null): boolean {
  return !viewer && !isWrite(route) && !route.readsOwnWrites;
}

/** What a handler learns of the request besides its input and viewer. */
type RequestParts = Pick<RouteContext<unknown, unknown>, 'request' | 'context' | 'clientAddress' | 'sessionToken'>;

async function answer(
  route: Route,
  input: unknown,
  viewer: Viewer | null,
  parts: RequestParts,
  url: URL,
  jsonBodies: boolean,
): Promise<Response> {
  const cacheKey = !viewer && route.anonymousCacheMs ? anonCacheKey(route.method, url) : undefined;
  if (cacheKey) {
    const hit = cachedAnswer(cacheKey);
    if (hit !== undefined) return answerResponse(hit, JSON_HEADERS, jsonBodies);
    // Concurrent misses of one key wait for a single build; the one who builds answers with its handler's headers.
    const mine: { headers?: Headers; stream?: Response } = {};
    const entry = await buildAnswerOnce(cacheKey, route.anonymousCacheMs!, async () => {
      mine.headers = new Headers(JSON_HEADERS);
      const body = await route.handler({ ...parts, input, viewer, headers: mine.headers });
      if (!(body instanceof Response)) return JSON.stringify(body);
      mine.stream = body;
      return undefined;
    });
    if (mine.stream) return mine.stream;
    if (entry) return answerResponse(entry, mine.headers ?? JSON_HEADERS, jsonBodies);
    // An event stream under a cached route: each viewer gets a stream of their own, below.
  }

  const headers = new Headers(JSON_HEADERS);
  const body = await route.handler({ ...parts, input, viewer, headers });
  // Event streams (routes/live-room.ts) answer a Response of their own.
  if (body instanceof Response) return body;
  // What anonymous visitors see, and the copies kept of the writer's own pages (page-answers.ts).
  if (changesSharedContent(route)) announceWrite(writtenVideos(input), viewer?.id);
  else if (viewer && isWrite(route)) announceMemberWrite(viewer.id);
  return textResponse(JSON.stringify(body), headers, jsonBodies);
}
