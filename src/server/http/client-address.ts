/**
 * The address a request comes from, for per-address limits and logs: the socket's peer, or, when TRUST_PROXY says a
 * proxy in front sets the X-Forwarded-* headers, the address that proxy appended last to X-Forwarded-For. Only that last
 * entry is the proxy's own word; whatever stands before it the client may have written itself. Behind a load balancer
 * every peer is the balancer, so without this every visitor would share one address's limits.
 */
import { isIP } from 'node:net';
import { config, type Config } from '../config.ts';

/** The client's address from the peer address and the X-Forwarded-For header (see the module's comment). */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  settings: Config = config(),
): string | undefined {
  if (forwardedFor && settings.TRUST_PROXY) {
    const last = forwardedFor.split(',').at(-1)?.trim();
    if (last && isIP(last)) return last;
  }
  return peer;
}
