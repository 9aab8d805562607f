/** What a page request must be before any page reads it: GET or HEAD, with a path and query of text a field takes. */
import { t } from '../../i18n/t.ts';
import { logLine } from '../log.ts';
import { logPath } from './log-path.ts';
import { hasForbiddenChar } from '../../shared/text-chars.ts';

/** Methods every page and static file answers; the API (src/server/api) keeps its own per route. */
export const PAGE_METHODS = ['GET', 'HEAD'] as const;

/** Whether pages answer `method`. */
export function isPageMethod(method: string | undefined): boolean {
  return (PAGE_METHODS as readonly string[]).includes((method ?? 'GET').toUpperCase());
}

function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** The path, decoded, or null when its %-escapes are not UTF-8. */
function decodedPath(url: URL): string | null {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
}

/**
 * The answer to a page request no page should see (405 for another method, 400 for a path or query with a character
 * no text field takes, such as NUL, which PostgreSQL refuses), or null to go on rendering.
 */
export function pageRefusal(request: Request, url: URL): Response | null {
  if (!isPageMethod(request.method)) {
    return refusal(405, t('error.methodNotAllowed'), { allow: PAGE_METHODS.join(', ') });
  }
  const path = decodedPath(url);
  if (path === null || hasForbiddenChar(path)) return refusal(400, t('error.badText'));
  for (const [key, value] of url.searchParams) {
    if (hasForbiddenChar(key) || hasForbiddenChar(value)) return refusal(400, t('error.badText'));
  }
  return null;
}

/** The answer to a page that failed while rendering, logged as one JSON line without the error's message (error-fields.ts). */
export function pageFailure(error: unknown, url: URL): Response {
  logLine('error', 'page: unexpected error', { path: logPath(url.pathname), error });
  return refusal(500, t('error.serverError'));
}
