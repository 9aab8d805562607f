/** Time-outs and the per-address connection cap of the HTTP server, from the configuration (config.ts). */
import { config, type Config } from '../config.ts';

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerIp: number;
}

/** The limits of a configuration. */
export function serverLimits(settings: Config = config()): ServerLimits {
  return {
    // Node requires headersTimeout <= requestTimeout.
    headersTimeoutMs: Math.min(settings.HTTP_HEADERS_TIMEOUT_MS, settings.HTTP_REQUEST_TIMEOUT_MS),
    requestTimeoutMs: settings.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: settings.MAX_CONNECTIONS_PER_IP,
  };
}
