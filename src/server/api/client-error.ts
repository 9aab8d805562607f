/**
 * What server.ts writes on a connection whose request Node's parser refused or that did not arrive in time, before
 * closing it: 408 for a time-out, 431 for a request line or headers past Node's limit (16 KB: a long query string),
 * 400 for anything else it cannot parse (a malformed Content-Length or chunk). Under /api the answer carries the
 * family's error envelope, as every other refusal there does; elsewhere the status line says it all.
 */
import { t } from '../../i18n/t.ts';
import { errorBody } from './envelope.ts';
import { familyOfApiPath } from './router.ts';

const REASONS = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' } as const;

/** The raw HTTP answer to a client error of Node's `code`, given the bytes of the request it read (`rawPacket`). */
export function clientErrorAnswer(code: string | undefined, rawPacket?: Buffer): string {
  const status = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\nConnection: close\r\n`;
  // The request line's target, as far as it came (a long one is cut at its query).
  const target =
    status === 408 ? undefined : /^[A-Z]+ (\/[^\s?]*)/.exec(rawPacket?.subarray(0, 4096).toString('latin1') ?? '')?.[1];
  if (!target || !(target === '/api' || target.startsWith('/api/'))) return `${head}\r\n`;
  const body = JSON.stringify(
    errorBody(familyOfApiPath(target), status, t(status === 431 ? 'error.requestTooLong' : 'error.badRequest')),
  );
  return (
    `${head}Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
