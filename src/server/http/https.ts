/**
 * Whether this site is served over HTTPS, as the operator configured it: `PUBLIC_URL` with an https scheme, or
 * `TRUST_PROXY` set and the proxy in front saying https in X-Forwarded-Proto. A client's own X-Forwarded-Proto is
 * never enough: without TRUST_PROXY anyone can send one. The answer decides the session cookie's name and Secure
 * flag and whether HSTS is sent.
 */
import { config, type Config } from '../config.ts';

/** Whether TRUST_PROXY says a proxy in front sets X-Forwarded-* itself. */
export function trustsProxy(settings: Config = config()): boolean {
  return settings.TRUST_PROXY;
}

/** Whether a request with this X-Forwarded-Proto value reached the site over HTTPS (see the module's comment). */
export function servedOverHttps(forwardedProto: string | null | undefined, settings: Config = config()): boolean {
  if (settings.PUBLIC_URL?.startsWith('https:')) return true;
  // A chain of proxies appends: the first value is what the client used to reach the outermost one.
  return settings.TRUST_PROXY && forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https';
}
