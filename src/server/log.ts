/**
 * The one way a server module writes a log line: one JSON object a line on stderr, `t` (ISO time), `level`, `msg`,
 * the id of the request it was written for (`requestId`, when there is one), then the fields. stderr carries every
 * diagnostic line; stdout is left to the request log (server.ts), one line per request with the same `requestId`, so a
 * collector can tell the two apart without reading them, and find every line of one request.
 */
import { errorFields } from './error-fields.ts';
import { currentRequest } from './http/request-scope.ts';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
/** What modules that report events take as their logger (logLine, or a test's collector). */
export type Log = (level: LogLevel, msg: string, fields?: LogFields) => void;

/** Keys every line starts with, in this order; a field of the same name never replaces them. */
const RESERVED = new Set(['t', 'level', 'msg', 'requestId']);

/**
 * The line's object: an Error under `error` is described by errorFields (its kind, a message only when it cannot quote
 * a user or a query, its code and stack), whose fields join the line; any other value under `error` but a string (the
 * caller's own words) is described by its type only, since a thrown value may carry anything. An Error under another
 * key is described by errorFields in place.
 */
function record(level: LogLevel, msg: string, fields: LogFields, now: Date): Record<string, unknown> {
  const line: Record<string, unknown> = { t: now.toISOString(), level, msg };
  const request = currentRequest();
  if (request) line.requestId = request.id;
  for (const [key, value] of Object.entries(fields)) {
    if (RESERVED.has(key)) continue;
    if (key === 'error' && value !== undefined && typeof value !== 'string') {
      for (const [k, v] of Object.entries(errorFields(value))) if (!RESERVED.has(k)) line[k] = v;
    } else {
      line[key] = value instanceof Error ? errorFields(value) : value;
    }
  }
  return line;
}

/** JSON.stringify's replacer for what it refuses: a BigInt as its digits, a reference back to an enclosing object as '[Circular]'. */
function tolerant(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown) {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    // `this` is the object holding `value`: the ones after it on the path are done with.
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    ancestors.push(value);
    return value;
  };
}

/** The line for one event, newline included; never throws (fields that cannot be serialised are said to be so). */
export function formatLine(level: LogLevel, msg: string, fields: LogFields = {}, now = new Date()): string {
  try {
    const line = record(level, msg, fields, now);
    try {
      return `${JSON.stringify(line)}\n`;
    } catch {
      return `${JSON.stringify(line, tolerant())}\n`;
    }
  } catch {
    // A getter or toJSON that throws: the event is still told, without its fields.
    return `${JSON.stringify({ t: now.toISOString(), level, msg: String(msg), logError: 'fields could not be serialised' })}\n`;
  }
}

// stdout and stderr whose reader is gone (a closed pipe: EPIPE), known by the 'error' event the stream then emits.
// Without a listener that event is an uncaught exception, whose handler (server.ts) logs it, which fails again: the
// process spun on a core for as long as it lived, never getting to its own timers, when what read its output had died.
const gone = new WeakSet<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => gone.add(stream));

/**
 * Writes `text` to stdout or stderr, unless its reader is gone: then the text is dropped, as it would be by a full
 * disk, and the process goes on serving. Never throws.
 */
export function writeStdio(stream: NodeJS.WriteStream, text: string): void {
  if (gone.has(stream)) return;
  try {
    stream.write(text);
  } catch {
    // Closed under us: the 'error' listener marks it.
  }
}

/** Writes one JSON line for an event to stderr (read at each call, so a test can spy on it). Never throws. */
export const logLine: Log = (level, msg, fields) => writeStdio(process.stderr, formatLine(level, msg, fields));
