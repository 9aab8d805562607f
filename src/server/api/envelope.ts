/** The two response envelopes of design.md §5 and the one mapping from failures to HTTP status and envelope. */
import { ZodError } from 'zod';
import { ServiceError, type ServiceErrorKind } from '../services/errors.ts';
import { MSG } from './messages.ts';

export type Family = 'A' | 'B';

/** A failure decided at the door (bad input, no session, unknown path, ...), answered with `status`. */
export class ApiError extends Error {
  readonly status: number;
  readonly retryAfter?: number;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, options: { retryAfter?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfter = options.retryAfter;
    this.headers = options.headers;
  }
}

/** Family A `status_code` for each HTTP status; 0 is success, 8 is Douyin's "not logged in". */
export const A_STATUS_CODE: Record<number, number> = { 400: 2, 401: 8, 403: 9, 404: 4, 405: 5, 409: 10, 413: 6, 415: 2, 429: 7, 500: 1 };

const KIND_STATUS: Record<ServiceErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
};

export const JSON_HEADERS: Record<string, string> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  // JSON only: comment text with HTML stays inert even if a browser opens the URL directly.
  'x-content-type-options': 'nosniff',
};

/** A JSON response with the API's common headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** Family A success: `{status_code: 0, ...fields}`. */
export function okA<T extends object>(fields: T): { status_code: 0 } & T {
  return { status_code: 0, ...fields };
}

/** Family B success: `{code: '200', msg, data}`; an empty profile tab answers code '404' with its data (spec point 3). */
export function okB<T>(data: T): { code: '200'; msg: string; data: T } {
  return { code: '200', msg: MSG.ok, data };
}

export function emptyB<T>(data: T): { code: '404'; msg: string; data: T } {
  return { code: '404', msg: MSG.emptyTab, data };
}

/** The error body of a family for an HTTP status. */
export function errorBody(family: Family, status: number, message: string): object {
  return family === 'A'
    ? { status_code: A_STATUS_CODE[status] ?? A_STATUS_CODE[500], status_msg: message }
    : { code: String(status), msg: message, data: null };
}

function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return MSG.badRequest;
    case 401:
      return MSG.unauthorized;
    case 403:
      return MSG.forbidden;
    case 404:
      return MSG.notFound;
    case 405:
      return MSG.methodNotAllowed;
    case 409:
      return MSG.conflict;
    case 413:
      return MSG.tooLarge;
    case 429:
      return MSG.rateLimited;
    default:
      return MSG.serverError;
  }
}

/** A 400 message naming the parameters that failed, e.g. `参数错误：count`. */
export function zodMessage(error: ZodError): string {
  const names = [...new Set(error.issues.map((i) => i.path.join('.') || 'body'))];
  return `${MSG.badRequest}：${names.join(', ')}`;
}

/** Any failure as the family's error response; unexpected errors are logged (one JSON line with the stack) and answered 500. */
export function errorResponse(family: Family, error: unknown, where: { method: string; path: string }): Response {
  let status = 500;
  let message: string = MSG.serverError;
  const headers: Record<string, string> = {};
  if (error instanceof ApiError) {
    status = error.status;
    message = error.message || defaultMessage(status);
    if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfter)));
    Object.assign(headers, error.headers);
  } else if (error instanceof ServiceError) {
    status = KIND_STATUS[error.kind];
    // 401 always carries the one message clients match on.
    message = status === 401 ? MSG.unauthorized : error.message || defaultMessage(status);
    if (status === 429) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfter ?? 1)));
  } else if (error instanceof ZodError) {
    status = 400;
    message = zodMessage(error);
  } else {
    logUnexpected(error, where);
  }
  return json(status, errorBody(family, status, message), headers);
}

/** One JSON line on stderr with the stack; the client only ever sees the generic message. */
export function logUnexpected(error: unknown, where: { method: string; path: string }): void {
  const e = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), level: 'error', msg: 'api: unexpected error', ...where, ...e })}\n`);
}
