/** CORS for the origins listed in CORS_ORIGINS (comma-separated), with credentials; no origin is allowed by default. */

const ALLOWED_HEADERS = 'Token, Content-Type';
const MAX_AGE = '600';

let cachedRaw: string | undefined;
let cachedSet = new Set<string>();

/** The allowed origins, re-read when the environment variable changes (tests set it per case). */
function allowedOrigins(): Set<string> {
  const raw = process.env.CORS_ORIGINS ?? '';
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSet = new Set(
      raw
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    );
  }
  return cachedSet;
}

/** Whether `origin` (scheme://host[:port]) is listed in CORS_ORIGINS. */
export function isAllowedOrigin(origin: string): boolean {
  return allowedOrigins().has(origin);
}

/** Headers that let `origin` read the response, or none when it is not listed. */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin || !isAllowedOrigin(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'Retry-After',
    vary: 'Origin',
  };
}

/** Headers of a preflight answer for a path that accepts `methods`. */
export function preflightHeaders(origin: string | null, methods: string[]): Record<string, string> {
  const base = corsHeaders(origin);
  if (!base['access-control-allow-origin']) return { vary: 'Origin' };
  return {
    ...base,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': MAX_AGE,
  };
}
