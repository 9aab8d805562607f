/** Time-outs and the per-address connection cap of the HTTP server, read from the environment once at start-up. */
import { z } from 'zod';

const ms = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const schema = z.object({
  /** A client must have sent a request's headers within this many ms of starting it (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: ms(10_000),
  /** A whole request (headers and body) must arrive within this many ms; answers may take longer (event streams). */
  HTTP_REQUEST_TIMEOUT_MS: ms(120_000),
  /** An idle keep-alive connection is closed after this many ms. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: ms(5_000),
  /** Open connections one address may hold; requests on more answer 503. 0 turns the cap off (a proxy in front). */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(256),
});

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerIp: number;
}

/** The limits from `env`; a value that is not a whole number names the variable and stops the start. */
export function serverLimits(env: NodeJS.ProcessEnv = process.env): ServerLimits {
  const parsed = schema.safeParse(Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[k] || undefined])));
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new Error(`${names}: expected a whole number of ${names.includes('MAX_') ? 'connections' : 'milliseconds'}`);
  }
  const v = parsed.data;
  return {
    // Node requires headersTimeout <= requestTimeout.
    headersTimeoutMs: Math.min(v.HTTP_HEADERS_TIMEOUT_MS, v.HTTP_REQUEST_TIMEOUT_MS),
    requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: v.MAX_CONNECTIONS_PER_IP,
  };
}
