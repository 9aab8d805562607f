/** What a route declares: method, Douyin's (or Family B's) path, family, login, input and response schemas, handler. */
import type { z } from 'zod';
import type { RequestContext } from '../http/request-context.ts';
import type { Viewer } from '../services/sessions.ts';
import type { Family } from './envelope.ts';
import type { StaffRole } from '../../shared/staff.ts';

/** Who may use a staff route, and whether it skips the recent-authentication check (the re-authentication itself). */
export interface StaffRule {
  role: StaffRole | 'any';
  fresh?: false;
}

export type Method = 'GET' | 'POST';

export interface RouteContext<I, V> {
  input: I;
  viewer: V;
  request: Request;
  /** Headers to add to a successful answer (login routes set the session cookie here). */
  headers: Headers;
  /** The request's context (request-context.ts): its origin, session cookie's name, client address, id. */
  context: RequestContext;
  /** The client's address, for per-IP rate limits ('unknown' when the door could not tell). */
  clientAddress: string;
  /** The session token `viewer` came from (the one a logout revokes), or undefined without a viewer. */
  sessionToken: string | undefined;
}

export interface RouteDef<I extends z.ZodType, O extends z.ZodType, A extends boolean> {
  method: Method;
  /** Path under /api, written with Douyin's trailing slash where Douyin has one; the router matches either form. */
  path: string;
  family: Family;
  /** Whether the route needs a logged-in viewer (401 otherwise). */
  auth: A;
  summary: string;
  /** Schema of the query (GET) or of the query and body fields merged (POST). */
  input: I;
  /** Schema of the whole response body on success. */
  response: O;
  handler: (ctx: RouteContext<z.output<I>, A extends true ? Viewer : Viewer | null>) => Promise<z.input<O>>;
  /** Answers that may be shared between anonymous viewers for this many ms (in-process cache). */
  anonymousCacheMs?: number;
  /** Files a multipart body may carry, by field name, with each one's cap in bytes (the handler's service enforces each). */
  files?: Record<string, number>;
  /** A POST that only reads (douyin.com and Family B POST some reads): it does not count against the write limits. */
  readOnly?: boolean;
  /** Reads what the same visitor has just written (a QR ticket's state): never answered from a read replica. */
  readsOwnWrites?: boolean;
  /**
   * A write nobody but its author sees (read marks, messages, watch progress, 稍后再看, sessions): it leaves the caches
   * of anonymous pages and answers alone. A play that watch progress counts shows when those entries expire.
   */
  ownOnly?: boolean;
  /** A staff route: 404 to everyone without the role, its writes fenced (staff-door.ts). */
  staff?: StaffRule;
  /** A write a client may send again under the same Idempotency-Key header (api/idempotency.ts): made once. */
  idempotent?: true;
}

/** A route with its types erased, as the router and the OpenAPI builder see it. */
export interface Route {
  method: Method;
  path: string;
  family: Family;
  auth: boolean;
  summary: string;
  input: z.ZodType;
  response: z.ZodType;
  handler: (ctx: RouteContext<unknown, Viewer | null>) => Promise<unknown>;
  anonymousCacheMs?: number;
  files?: Record<string, number>;
  readOnly?: boolean;
  readsOwnWrites?: boolean;
  ownOnly?: boolean;
  staff?: StaffRule;
  idempotent?: true;
}

/** Whether a successful call may change what anonymous visitors see, and so must clear their caches. */
export function changesSharedContent(route: Route): boolean {
  return route.auth && isWrite(route) && !route.ownOnly;
}

/**
 * The videos a write wrote to, by the fields of its input (a like, a comment, a danmaku, a work edited or removed in
 * the studio): the caches of anonymous answers drop what they hold about them at once (cache/anonymous-content.ts).
 */
export function writtenVideos(input: unknown): number[] {
  if (typeof input !== 'object' || input === null) return [];
  const fields = input as { aweme_id?: unknown; workId?: unknown; vid?: unknown; videoId?: unknown };
  const video = fields.aweme_id ?? fields.workId ?? fields.vid ?? fields.videoId;
  return Number.isSafeInteger(video) && (video as number) > 0 ? [video as number] : [];
}

/** Whether a route changes something, and so counts against the write limits (services/write-limits.ts). */
export function isWrite(route: Route): boolean {
  return route.method === 'POST' && !route.readOnly;
}

/** Declares a route; types flow from the schemas into the handler. */
export function route<I extends z.ZodType, O extends z.ZodType, A extends boolean>(def: RouteDef<I, O, A>): Route {
  return def as unknown as Route;
}

/** The largest body a route reads: MAX_BODY for its fields, plus the caps of the files it takes. */
export function bodyCap(route: Pick<Route, 'files'>, fieldsMax: number): number {
  return Object.values(route.files ?? {}).reduce((sum, cap) => sum + cap, fieldsMax);
}

/** The key under which a path is matched: no /api prefix, no trailing slash. */
export function pathKey(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}
