/**
 * The 503 answers of this server (database down, stopping, too many connections) and its last-resort 500: the family's
 * envelope under /api, a small page elsewhere.
 */
import { t } from '../../i18n/t.ts';
import { errorBody, familyOfPath } from './envelope.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `status` with `message`: the family's envelope under /api (uploads included), a small page elsewhere. */
function answer(pathname: string, status: number, message: string, headers: Record<string, string>): Answer {
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    const family = familyOfPath(pathname.replace(/^\/api(?=\/|$)/, '') || '/');
    return {
      status,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(errorBody(family, status, message)),
    };
  }
  const page = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t('app.name'))}</title></head><body style="font-family:sans-serif;text-align:center;padding:20vh 1em"><p>${escapeHtml(message)}</p></body></html>`;
  return { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body: page };
}

/** 503 with Retry-After for a request to `pathname`, with `Connection: close` when the connection must end. */
export function unavailableAnswer(pathname: string, retryAfterS: number, close = false): Answer {
  const headers: Record<string, string> = { 'retry-after': String(retryAfterS), 'cache-control': 'no-store' };
  if (close) headers.connection = 'close';
  return answer(pathname, 503, t('error.unavailable'), headers);
}

/** 500 for a request to `pathname` that failed unexpectedly (the cause goes to the log, never to the client). */
export function serverErrorAnswer(pathname: string): Answer {
  return answer(pathname, 500, t('error.serverError'), { 'cache-control': 'no-store' });
}

/** The same answer as a fetch Response (Astro middleware). */
export function unavailableResponse(pathname: string, retryAfterS: number): Response {
  const { status, headers, body } = unavailableAnswer(pathname, retryAfterS);
  return new Response(body, { status, headers });
}
