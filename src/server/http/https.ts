/**
 * Whether this site is served over HTTPS, as the operator configured it: `PUBLIC_URL` with an https scheme, or
 * `TRUST_PROXY` set and the proxy in front saying https in X-Forwarded-Proto. A client's own X-Forwarded-Proto is
 * never enough: without TRUST_PROXY anyone can send one. The answer decides the session cookie's name and Secure
 * flag and whether HSTS is sent.
 */
import { configuredPublicUrl } from './public-origin.ts';

type Env = Record<string, string | undefined>;

/** Whether TRUST_PROXY says a proxy in front sets X-Forwarded-* itself (1, true, yes or on). */
export function trustsProxy(env: Env = process.env): boolean {
  return /^(1|true|yes|on)$/i.test((env.TRUST_PROXY ?? '').trim());
}

/** Whether a request with this X-Forwarded-Proto value reached the site over HTTPS (see the module's comment). */
export function servedOverHttps(forwardedProto: string | null | undefined, env: Env = process.env): boolean {
  if (configuredPublicUrl(env.PUBLIC_URL)?.startsWith('https:')) return true;
  // A chain of proxies appends: the first value is what the client used to reach the outermost one.
  return trustsProxy(env) && forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https';
}
