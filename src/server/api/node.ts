/**
 * The API served straight from node:http, without Astro's page pipeline in between (about twice the requests/s on
 * the hot reads, bench/api.mjs). For a custom server: `if (path.startsWith('/api/')) return serveApi(req, res);`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { errorBody } from './envelope.ts';
import { MSG } from './messages.ts';
import { handleApi } from './router.ts';

/** Whether a request path belongs to the API. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Answers one /api request on a Node response; never throws. */
export async function serveApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: Response;
  try {
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
      method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
    response = await handleApi(request, { clientAddress: req.socket.remoteAddress });
  } catch {
    // Only a request Node accepted but fetch's Request refuses (a method or header it forbids) gets here.
    response = new Response(JSON.stringify(errorBody('B', 400, MSG.badRequest)), {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) return pipeStream(response.body, res);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
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
