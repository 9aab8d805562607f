/** The browser's one API client: base /api, the Token header, form-encoded POSTs, one error mapping. */
import wretch, { type WretchError } from 'wretch';
import FormUrlAddon from 'wretch/addons/formUrl';
import QueryStringAddon from 'wretch/addons/queryString';
import type { MessageKey } from '../i18n/zh-CN.ts';
import { NOT_LOGGED_IN } from '../shared/status-code.ts';
import { $sessionEnded, openLogin } from './auth.ts';
import { $user, clearLocalSession } from './session.ts';
import { toast } from './toast.ts';

export const API_BASE: string = import.meta.env.PUBLIC_API_BASE ?? '/api';
export const API_TIMEOUT_MS = Number(import.meta.env.PUBLIC_API_TIMEOUT_MS ?? 15_000);

// The catalogue loads only when a message is needed, keeping it out of every page's first load.
async function text(key: MessageKey): Promise<string> {
  return (await import('../i18n/t.ts')).t(key);
}

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface CallOptions {
  /**
   * The caller shows failures itself (the login forms): no toasts, and a 401 is a wrong password or code,
   * not an expired session.
   */
  quiet?: boolean;
  signal?: AbortSignal;
  /**
   * A write the server makes once per Idempotency-Key (a comment, a message, a work published): it goes out with a
   * key of its own and is sent again with the same key while the server answers 503 (the database switching over) or
   * the network drops it, up to WRITE_ATTEMPTS times; a repeat the first attempt had made answers what it made.
   */
  idempotent?: boolean;
}

/** How many times an idempotent write is sent before its failure is shown. */
export const WRITE_ATTEMPTS = 3;
/** The longest wait between two attempts, whatever Retry-After says (a switch-over takes seconds). */
const RETRY_WAIT_MAX_MS = 5_000;

/** A key for one write: 128 random bits, base64url (getRandomValues works on plain-HTTP pages too). */
export function writeKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Whether a failed attempt of an idempotent write may be sent again, and after how many ms. */
function retryIn(error: unknown, options: CallOptions): number | undefined {
  if (options.signal?.aborted) return undefined;
  const wretchError = error as Partial<WretchError>;
  // A timeout spent the call's whole allowance already: it is reported, not sent again.
  if (typeof wretchError.status !== 'number') return (error as Error)?.name === 'TimeoutError' ? undefined : 500;
  if (wretchError.status !== 503) return undefined;
  const seconds = Number(wretchError.response?.headers.get('retry-after'));
  return Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, RETRY_WAIT_MAX_MS);
}

/** A failed call: HTTP status (0 for a network failure), the server's message, and Retry-After seconds on a 429. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly statusCode?: number;
  readonly retryAfter?: number;

  constructor(status: number, message: string, extra: { statusCode?: number; retryAfter?: number } = {}) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.statusCode = extra.statusCode;
    this.retryAfter = extra.retryAfter;
  }
}

interface Envelope {
  status_code?: number;
  status_msg?: string;
  code?: string;
  msg?: string;
}

// Built per request (defer): the Token header is read from the user store at the moment of each call.
const api = wretch(API_BASE)
  .addon([FormUrlAddon, QueryStringAddon])
  .options({ credentials: 'same-origin' })
  .accept('application/json')
  .defer((w) => {
    const token = $user.get().token;
    return token ? w.headers({ Token: token }) : w;
  });

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { status_msg, msg } = body as Envelope;
  return (typeof status_msg === 'string' && status_msg) || (typeof msg === 'string' && msg) || undefined;
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Applies the error mapping to one failure of a call sent with `sentToken`, and returns the error to reject with. */
async function mapFailure(
  error: unknown,
  path: string,
  options: CallOptions,
  sentToken: string | null,
): Promise<ApiFailure> {
  if (error instanceof ApiFailure) return error;
  const wretchError = error as Partial<WretchError>;
  if (typeof wretchError.status !== 'number') {
    if ((error as Error)?.name === 'AbortError' && options.signal?.aborted) return new ApiFailure(0, 'aborted');
    console.error('[api] network error', path, error);
    const network = await text('toast.network');
    if (!options.quiet) toast(network, { type: 'error' });
    return new ApiFailure(0, network);
  }
  const status = wretchError.status;
  const body = parseBody(wretchError.message ?? '');
  const message = serverMessage(body);
  const retryHeader = Number(wretchError.response?.headers.get('retry-after'));
  const failed = message ?? (await text('toast.failed'));
  const failure = new ApiFailure(status, failed, {
    statusCode: (body as Envelope | undefined)?.status_code,
    retryAfter: Number.isFinite(retryHeader) && retryHeader > 0 ? retryHeader : undefined,
  });
  if (options.quiet) return failure;
  if (status === 401) {
    await expireSession(sentToken);
  } else if (status === 404) {
    console.warn('[api] not found', path);
  } else if (status >= 500 || status === 429) {
    toast(failed, { type: 'error' });
  } else {
    console.error('[api] request failed', status, path, message);
  }
  return failure;
}

/**
 * A 401 anywhere: with a session to lose, the expired-session toast and local storage and the user
 * store cleared; without one, nothing expired, so the login dialog is offered instead. A call sent with a token that
 * is gone already (calls in flight when the session ended) adds nothing: one toast, and no dialog nobody asked for.
 */
async function expireSession(sentToken: string | null): Promise<void> {
  const { token, userInfo } = $user.get();
  if (sentToken !== null && token !== sentToken) return;
  if (!token && !userInfo) {
    // A call that went out with the session cookie alone while the session was ending (the page's marks, the inbox):
    // the expired-session toast has said it, and a write asks for the login itself.
    if (sentToken === null && $sessionEnded.get()) return;
    return openLogin();
  }
  clearLocalSession();
  toast(await text('toast.expired'), { type: 'error' });
}

/** The body of a 200, or a rejection: missing bodies, a non-zero Family A status_code or a Family B error code. */
async function unwrap<T>(body: unknown, path: string, options: CallOptions, sentToken: string | null): Promise<T> {
  if (typeof body !== 'object' || body === null) throw new ApiFailure(200, await text('toast.failed'));
  const { status_code, code } = body as Envelope;
  // douyin.com's "not logged in" may come with HTTP 200 (user/profile/self/): the session rule is the 401's.
  if (status_code === NOT_LOGGED_IN)
    throw await mapFailure({ status: 401, message: JSON.stringify(body) }, path, options, sentToken);
  if (typeof status_code === 'number' && status_code !== 0) {
    throw new ApiFailure(200, serverMessage(body) ?? (await text('toast.failed')), { statusCode: status_code });
  }
  // Family B answers HTTP 200 with its own string codes; '404' is an empty tab and is data.
  if (typeof code === 'string' && code !== '200' && code !== '404') {
    throw await mapFailure({ status: Number(code) || 500, message: JSON.stringify(body) }, path, options, sentToken);
  }
  return body as T;
}

async function send<T>(path: string, run: (w: typeof api) => Promise<string>, options: CallOptions): Promise<T> {
  let body: unknown;
  // The token the call goes out with (read the same way as the Token header), to judge a 401 by.
  const sentToken = $user.get().token;
  const key = options.idempotent ? writeKey() : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const signal = options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(API_TIMEOUT_MS)])
        : AbortSignal.timeout(API_TIMEOUT_MS);
      const w = api.url(path).options({ signal });
      body = parseBody(await run(key ? w.headers({ 'Idempotency-Key': key }) : w));
      break;
    } catch (error) {
      const wait = key && attempt < WRITE_ATTEMPTS ? retryIn(error, options) : undefined;
      if (wait === undefined) throw await mapFailure(error, path, options, sentToken);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return unwrap<T>(body, path, options, sentToken);
}

/** GET `/api{path}` with query parameters; resolves to the response body. */
export function apiGet<T>(path: string, query: Params = {}, options: CallOptions = {}): Promise<T> {
  return send<T>(path, (w) => w.query(query, { omitUndefinedOrNullValues: true }).get().text(), options);
}

/** POST `/api{path}` with a form-encoded body; resolves to the response body. */
export function apiPost<T>(path: string, form: Params = {}, options: CallOptions = {}): Promise<T> {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (v !== undefined && v !== null) fields[k] = String(v);
  return send<T>(path, (w) => w.formUrl(fields).post().text(), options);
}

/** POST `/api{path}` with a multipart body (a form with files); resolves to the response body. */
export function apiPostMultipart<T>(path: string, body: FormData, options: CallOptions = {}): Promise<T> {
  // No content-type of ours: the browser writes multipart/form-data with its boundary.
  return send<T>(path, (w) => w.body(body).post().text(), options);
}
