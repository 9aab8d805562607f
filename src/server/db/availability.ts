/** Whether a failure means the database cannot be reached right now (answered 503 with Retry-After, not 500). */

/**
 * Seconds a client is told to wait while the database is unavailable (a supervised restart takes 0.5-5 s, a failover
 * to a replica 2-15 s).
 */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

// Class 08 (connection exception; PgBouncer's own errors are 08P01), 57P01-57P03 (shut down, crashed, starting up),
// 53300 (too many connections), 25006 (a write reached a server that is read-only: a primary demoted in a failover,
// still reached by a connection opened before it).
const UNAVAILABLE_CODES =
  /^(08...|57P0[1-3]|53300|25006|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
// node-postgres reports a lost or unusable connection with these messages and no code.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** True when `error` (or an error it wraps: Drizzle puts the driver's error in `cause`) says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // net.connect to a name with several addresses rejects with an AggregateError of the attempts.
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
