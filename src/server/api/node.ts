/**
 * The API served straight from node:http, without Astro's page pipeline in between (about twice the requests/s on
 * the hot reads, bench/api.mjs). For a custom server: `if (path.startsWith('/api/')) return serveApi(req, res);`.
 * It compresses its own answers (br or gzip when asked and worth it), writes each in one go with Content-Length,
 * and compresses a cached hot read once for all the viewers it serves.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { t } from '../../i18n/t.ts';
import { compressBody } from '../encoding.ts';
import { contextOfNode, type RequestContext } from '../http/request-context.ts';
import { cachedAnswerOf, type CachedAnswer } from '../cache/anon-cache.ts';
import { errorBody } from './envelope.ts';
import { answerTextOf } from './json-answer.ts';
import { familyOfApiPath, handleApi } from './router.ts';

/** Answers shorter than this go out as they are: compressing them saves less than it costs. */
const COMPRESS_MIN = 1024;

/** Whether a request path belongs to the API. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** A cached answer compressed once per encoding; viewers asking while it is being compressed wait for it. */
function compressedOnce(entry: CachedAnswer, encoding: 'br' | 'gzip'): Promise<Uint8Array> {
  let packed = entry.encoded.get(encoding);
  if (!packed) {
    packed = compressBody(entry.bytes, encoding);
    entry.encoded.set(encoding, packed);
    // A failure is not kept: the next viewer tries again.
    packed.catch(() => entry.encoded.delete(encoding));
  }
  return packed;
}

/**
 * Answers one /api request on a Node response; never throws. The fetch Request handed to the router is addressed at the
 * site's origin as the request context reads it (answers make share links on it).
 */
export async function serveApi(
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext = contextOfNode(req),
): Promise<void> {
  let response: Response;
  try {
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(`${context.origin}${req.url ?? '/'}`, {
      method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
    response = await handleApi(request, { context, jsonBodies: false });
  } catch {
    // Only a request Node accepted but fetch's Request refuses (a method or header it forbids) gets here: answered in
    // the family of the route it names, as the router answers.
    const family = familyOfApiPath((req.url ?? '/').split('?')[0]!);
    response = new Response(JSON.stringify(errorBody(family, 400, t('error.badRequest'))), {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  res.statusCode = response.status;
  // Each Set-Cookie stays its own header line (a login sets the session cookie and its hint): setHeader per value would
  // keep only the last.
  response.headers.forEach((value, key) => key !== 'set-cookie' && res.setHeader(key, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  // An answer given before the body was read (a 413 by its declared length, a 401, 404 or 405) leaves the rest of the
  // body on the connection, paused: a keep-alive client's next request on it would wait behind it, or meet a reset.
  // Closing after this answer tells the client to send its next request on a new connection.
  if (!req.complete) res.setHeader('connection', 'close');
  const type = response.headers.get('content-type') ?? '';
  if (response.body && type.startsWith('text/event-stream')) return pipeStream(response.body, res);

  // JSON answers come without a body (jsonBodies: false): a cached one's bytes are its entry's, another's its text,
  // which goes onto the socket as it is when not compressed.
  const entry = cachedAnswerOf(response);
  let body: Uint8Array | string =
    entry?.bytes ??
    answerTextOf(response) ??
    new Uint8Array(response.body ? await response.arrayBuffer() : new ArrayBuffer(0));
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (length >= COMPRESS_MIN && type.startsWith('application/json')) {
    const vary = res.getHeader('vary');
    res.setHeader('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = context.encoding;
    if (encoding) {
      body = await (entry ? compressedOnce(entry, encoding) : compressBody(body, encoding));
      res.setHeader('content-encoding', encoding);
    }
  }
  if (req.method === 'HEAD') return void res.end();
  res.setHeader('content-length', typeof body === 'string' ? length : body.byteLength);
  res.end(body);
}

/** Writes an event stream through as it comes; the client leaving cancels it, which ends its subscriptions. */
async function pipeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } catch {
    // Cancelled because the client left, or the stream failed: either way this response is over.
  }
  if (!res.destroyed) res.end();
}
