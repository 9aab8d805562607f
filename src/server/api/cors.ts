/** CORS for the origins listed in CORS_ORIGINS (comma-separated), with credentials; no origin is allowed by default. */
import { config } from '../config.ts';

const ALLOWED_HEADERS = 'Token, Content-Type, Idempotency-Key';
const MAX_AGE = '600';

/** Whether `origin` (scheme://host[:port]) is listed in CORS_ORIGINS. */
export function isAllowedOrigin(origin: string): boolean {
  return config().CORS_ORIGINS.has(origin);
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
