/**
 * This site's address for links that leave the browser, such as the QR code a phone scans: `PUBLIC_URL` when set (a
 * deployment behind a proxy or on a public name), else the address the request reached, port included.
 */

import { config } from '../config.ts';

// A host as the Host header may carry it: a name or IPv4 address, or a bracketed IPv6 address, and an optional port.
const HOST = /^(?:[a-z\d](?:[a-z\d.-]*[a-z\d])?|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/** `PUBLIC_URL` without its trailing slash, or undefined when unset. */
export function configuredPublicUrl(): string | undefined {
  return config().PUBLIC_URL;
}

/**
 * The base for an absolute link to this site: `PUBLIC_URL`, else scheme, host and port from the request's Host header
 * (the request URL a server builds may have lost the port), else the request URL's own origin.
 */
export function publicOrigin(request: Request, configured = configuredPublicUrl()): string {
  if (configured) return configured;
  const url = new URL(request.url);
  const host = request.headers.get('host')?.trim();
  const scheme = request.headers.get('x-forwarded-proto') === 'https' ? 'https:' : url.protocol;
  return host && HOST.test(host) ? `${scheme}//${host.toLowerCase()}` : url.origin;
}
