/**
 * The upload door's refusals: Family B's envelope with a catalogue message, thrown to tus or answered by the door
 * itself; and tus's own refusals (its protocol checks, its store's failures), which it writes as plain text, mapped to
 * the same envelope. tus clients read only the status and the tus headers; a 429 or 503 also says when to come back
 * (Retry-After), wherever it was raised.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS, Server, type CancellationContext } from '@tus/server';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { errorBody, errorResponse, JSON_HEADERS } from './envelope.ts';
import { logLine } from '../log.ts';
import type { MessageVars, ServiceError } from '../errors.ts';
import { logPath } from '../http/log-path.ts';

/** A refusal as tus reads one (`status_code`, `body`), with headers of its own (Retry-After, Allow, Tus-Version). */
export interface Refusal {
  status_code: number;
  body: string;
  headers?: Record<string, string>;
}

/** A refusal with the catalogue message `key`. */
export function refusal(
  status: number,
  key: MessageKey,
  vars?: MessageVars,
  headers?: Record<string, string>,
): Refusal {
  return { status_code: status, body: JSON.stringify(errorBody('B', status, t(key, vars))), headers };
}

const KIND_STATUS: Record<string, number> = {
  invalid: 422,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  unauthorized: 401,
  rate_limited: 429,
};
// Refused for what the file is (not for how it went): the client must not retry these.
const WRONG_TYPE = new Set<MessageKey>(['error.uploadNotVideo', 'error.coverNotImage']);

/** A service's refusal of an upload (its limit, its content) as the door answers it. */
export function fromServiceError(error: ServiceError): Refusal {
  const status = WRONG_TYPE.has(error.key) ? 415 : (KIND_STATUS[error.kind] ?? 400);
  const headers =
    error.kind === 'rate_limited'
      ? { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfter ?? 1))) }
      : undefined;
  return refusal(status, error.key, error.vars, headers);
}

/** What tus's refusals mean to the uploader, by status; another 4xx reads as bad input, a 5xx as a server error. */
const TUS_STATUS_KEYS: Partial<Record<number, MessageKey>> = {
  404: 'error.uploadNotFound',
  // Gone: the store still has the upload's record, not its bytes.
  410: 'error.uploadNotFound',
  409: 'error.uploadOffsetConflict',
  412: 'error.tusVersion',
  413: 'error.uploadPastLength',
  415: 'error.unsupportedType',
  423: 'error.uploadBusy',
};

/** tus errors that say more than their status. */
const TUS_ERROR_KEYS = new Map<unknown, MessageKey>([
  [ERRORS.MISSING_OFFSET, 'error.uploadOffsetRequired'],
  [ERRORS.INVALID_LENGTH, 'error.uploadLengthRequired'],
  // Another request took the upload over (its client resumed elsewhere): this one stops.
  [ERRORS.ABORTED, 'error.uploadBusy'],
]);

function refusalKey(status: number): MessageKey {
  return TUS_STATUS_KEYS[status] ?? (status >= 500 ? 'error.serverError' : 'error.badRequest');
}

/** Whether an answer's body is already the envelope (the door's refusals, thrown through tus's hooks). */
function isEnvelope(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { code?: unknown }).code === 'string';
  } catch {
    return false;
  }
}

function isTusError(error: unknown): error is { status_code: number; body: string } {
  const e = error as { status_code?: unknown; body?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.status_code === 'number' && typeof e.body === 'string';
}

/**
 * For tus's `onResponseError`: what its handlers, its store or the door's hooks threw, as the envelope. Anything but
 * a tus error is unexpected and goes through the API's mapping (logged with its stack; 503 while the database is
 * down, else a bare 500): tus would answer it with the error's own message, file paths and all.
 */
async function fromTusError(error: unknown, where: { method: string; path: string }): Promise<Refusal> {
  if (isTusError(error)) {
    if (isEnvelope(error.body)) return error;
    // The store's failures (a full disk, a lock never granted) are constant texts: log which one it was.
    if (error.status_code >= 500) logFailure(error, where);
    return refusal(error.status_code, TUS_ERROR_KEYS.get(error) ?? refusalKey(error.status_code));
  }
  const answer = errorResponse('B', error, where);
  return { status_code: answer.status, body: await answer.text(), headers: Object.fromEntries(answer.headers) };
}

function logFailure(error: { status_code: number; body: string }, where: { method: string; path: string }): void {
  logLine('error', 'upload: tus failed', { ...where, status: error.status_code, error: error.body.trim() });
}

function pathOf(url: string): string {
  try {
    return logPath(new URL(url, 'http://upload').pathname);
  } catch {
    return ':text';
  }
}

// Per request served: the headers of the refusal it is answered with, from `onResponseError` for `write`.
const refusalHeaders = new AsyncLocalStorage<{ headers?: Record<string, string> }>();

/**
 * tus's Server with every error answer in the envelope, as JSON. Its hook `onResponseError` maps what its handlers
 * throw; the answers it writes before any handler (412 without Tus-Resumable, 400 for a header it cannot read) skip
 * that hook, and no hook sets a content type. Every error answer goes through `write` (public on Server), the one
 * place that sees them all. tus keeps only the status and body of the hook's mapping, so the refusal's own headers
 * (Retry-After of a 429 or a 503) wait for `write` in the request's async context.
 */
export class EnvelopeServer extends Server {
  constructor(options: ConstructorParameters<typeof Server>[0]) {
    super({
      ...options,
      exposedHeaders: [...(options.exposedHeaders ?? []), 'Retry-After'],
      onResponseError: async (req, error) => {
        const refused = await fromTusError(error, { method: req.method, path: pathOf(req.url) });
        const slot = refusalHeaders.getStore();
        if (slot) slot.headers = refused.headers;
        return refused;
      },
    });
  }

  override handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return refusalHeaders.run({}, () => super.handle(req, res));
  }

  override handleWeb(req: Request): Promise<Response> {
    return refusalHeaders.run({}, () => super.handleWeb(req));
  }

  override write(context: CancellationContext, headers: Headers, status: number, body = '') {
    if (status >= 400) {
      if (!isEnvelope(body)) body = refusal(status, refusalKey(status)).body;
      for (const [name, value] of Object.entries({ ...refusalHeaders.getStore()?.headers, ...JSON_HEADERS }))
        headers.set(name, value);
    }
    return super.write(context, headers, status, body);
  }
}
