/**
 * What a log line may say about an unexpected error: never what a user typed nor the parameters of a query. Drizzle's
 * errors carry the SQL and its parameters in their message ('Failed query: … params: …'), PostgreSQL's may quote a
 * value in their message or `detail`, and JSON.parse quotes its input: of those only the kind, the SQLSTATE, the names
 * of the schema objects involved and the stack frames are logged.
 */
import { sqlState } from './db/retry.ts';

const MAX_MESSAGE = 300;

/** SQLSTATE classes about the server itself (connection, login, database, resources, shutdown), whose messages quote no data. */
const SERVER_CLASSES = new Set(['08', '28', '3D', '53', '57', '58']);

/** Fields of a pg error that name schema objects, never values. */
const PG_NAMES = ['severity', 'table', 'column', 'constraint', 'routine'] as const;

/** The stack's frames without its first line, which repeats the message. */
function frames(error: Error): string | undefined {
  return error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/** The database error inside `error` (Drizzle wraps pg's), if any. */
function pgErrorOf(error: unknown): Record<string, unknown> | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (typeof (e as { severity?: unknown }).severity === 'string') return e as Record<string, unknown>;
  }
  return undefined;
}

/** Log fields for `error`: its kind, a message only when it cannot quote a user or a query, its code and its stack. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const state = sqlState(error);
  const code = state ?? (error as { code?: unknown }).code;
  const pg = pgErrorOf(error);
  const quotesInput =
    pg !== undefined || state !== undefined || error.name === 'DrizzleQueryError' || error instanceof SyntaxError;
  const fields: Record<string, unknown> = { error: error.name };
  if (!quotesInput) fields.message = error.message.slice(0, MAX_MESSAGE);
  else if (pg && state && SERVER_CLASSES.has(state.slice(0, 2)))
    fields.message = String(pg.message).slice(0, MAX_MESSAGE);
  if (code !== undefined) fields.code = code;
  for (const key of PG_NAMES) if (pg && typeof pg[key] === 'string') fields[key] = pg[key];
  fields.stack = frames(error);
  return fields;
}

/**
 * `value` as an Error: a plain copy of one (pg-boss emits its errors' fields spread into an object) becomes an Error with
 * those fields again, so that errorFields judges it as the original (a database error's message is left out); anything
 * else is returned as it is.
 */
export function asError(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Error) return value;
  const copy = value as { message?: unknown; name?: unknown };
  const error = Object.assign(new Error(typeof copy.message === 'string' ? copy.message : ''), value);
  if (typeof copy.name === 'string') error.name = copy.name;
  return error;
}
