/** The API's two response envelopes (Family A `status_code`, Family B `code`) and the one mapping from failures to HTTP status and envelope. */
import { ZodError } from 'zod';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../db/availability.ts';
import { A_STATUS_CODE, NOT_LOGGED_IN } from '../../shared/status-code.ts';
import { logLine } from '../log.ts';
import { ServiceError, type MessageVars, type ServiceErrorKind } from '../errors.ts';

export type Family = 'A' | 'B';

/** A failure decided at the door (bad input, no session, unknown path, ...), answered with `status`. */
export class ApiError extends Error {
  readonly status: number;
  /** The catalogue message the envelope carries, as text from `t(key, vars)`. */
  readonly key: MessageKey;
  readonly vars?: MessageVars;
  readonly retryAfter?: number;
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    key: MessageKey,
    vars?: MessageVars,
    options: { retryAfter?: number; headers?: Record<string, string> } = {},
  ) {
    super(key);
    this.name = 'ApiError';
    this.status = status;
    this.key = key;
    this.vars = vars;
    this.retryAfter = options.retryAfter;
    this.headers = options.headers;
  }
}

/** Family B's success `msg`: a protocol constant clients compare, not a message for people. */
const OK_MSG = 'success';

export { A_STATUS_CODE } from '../../shared/status-code.ts';

const KIND_STATUS: Record<ServiceErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
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

/** Family B success: `{code: '200', msg, data}`; `emptyB` answers an empty profile tab with code '404' and its data. */
export function okB<T>(data: T): { code: '200'; msg: string; data: T } {
  return { code: '200', msg: OK_MSG, data };
}

export function emptyB<T>(data: T): { code: '404'; msg: string; data: T } {
  return { code: '404', msg: t('common.empty'), data };
}

/** Family A's "not logged in" as a body of its own: `user/profile/self/` answers it with HTTP 200, as douyin.com does. */
export function notLoggedInA(): { status_code: typeof NOT_LOGGED_IN; status_msg: string } {
  return { status_code: NOT_LOGGED_IN, status_msg: t('error.unauthorized') };
}

/** Path prefixes (without `/api`) of douyin's own routes, which answer in Family A; passport's are douyin's too. */
const FAMILY_A_PREFIXES = ['/aweme/', '/webcast/', '/passport/'];

/**
 * The family of an API path (without `/api`) before its route is known (an unknown path, a 503 before routing):
 * douyin's own prefixes are Family A, however many slashes lead to them.
 */
export function familyOfPath(path: string): Family {
  const normal = path.replace(/^\/+/, '/');
  return FAMILY_A_PREFIXES.some((prefix) => normal.startsWith(prefix)) ? 'A' : 'B';
}

/** The error body of a family for an HTTP status. */
export function errorBody(family: Family, status: number, message: string): object {
  return family === 'A'
    ? { status_code: A_STATUS_CODE[status] ?? A_STATUS_CODE[500], status_msg: message }
    : { code: String(status), msg: message, data: null };
}

/** The parameters a 400 names, for `error.badRequestFields` (e.g. `参数错误：count`). */
export function zodFields(error: ZodError): MessageVars {
  return { fields: [...new Set(error.issues.map((i) => i.path.join('.') || 'body'))].join(', ') };
}

/**
 * Any failure as the family's error response; an unreachable database is 503 with Retry-After, other unexpected errors
 * are logged (one JSON line with the stack) and answered 500.
 */
export function errorResponse(family: Family, error: unknown, where: { method: string; path: string }): Response {
  let status = 500;
  let message = t('error.serverError');
  const headers: Record<string, string> = {};
  if (error instanceof ApiError) {
    status = error.status;
    message = t(error.key, error.vars);
    if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfter)));
    Object.assign(headers, error.headers);
  } else if (error instanceof ServiceError) {
    status = KIND_STATUS[error.kind];
    // 401 always carries the one message clients match on.
    message = status === 401 ? t('error.unauthorized') : t(error.key, error.vars);
    if (status === 429) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfter ?? 1)));
  } else if (error instanceof ZodError) {
    status = 400;
    message = t('error.badRequestFields', zodFields(error));
  } else if (isDatabaseUnavailable(error)) {
    // The database is down or restarting: a retry soon will work, so this is not the server's fault (500).
    status = 503;
    message = t('error.unavailable');
    headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_S);
  } else {
    logUnexpected(error, where);
  }
  return json(status, errorBody(family, status, message), headers);
}

/** One log line with the stack (error-fields.ts: no user text, no SQL); the client only ever sees the generic message. */
function logUnexpected(error: unknown, where: { method: string; path: string }): void {
  logLine('error', 'api: unexpected error', { ...where, error });
}
