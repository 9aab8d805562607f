/**
 * The upload door: tus 1.0 (@tus/server with @tus/file-store) under /api/upload, files under UPLOADS_DIR (default
 * DATA_DIR/uploads), one directory that every app server and worker shares: a PATCH may reach another server than its
 * POST, and the worker reads the finished file.
 * In front of tus: the session (the request context's: Token header, else session cookie), the per-user limit on new
 * uploads, the size cap on
 * the declared Upload-Length (before a byte is stored; a deferred length is refused) and ownership of an existing
 * upload; refusals answer Family B's envelope, and so do tus's own (upload-refusals.ts). FileStore keeps each upload's
 * offset on disk, so a client resumes with HEAD + PATCH after a restart or a kill of the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FileStore } from '@tus/file-store';
import { Metadata, TUS_RESUMABLE, TUS_VERSION, type Server, type Upload } from '@tus/server';
import pg from 'pg';
import { TUS_ENDPOINT, UPLOAD_KINDS, type UploadKind } from '../../shared/studio.ts';
import { corsHeaders } from './cors.ts';
import { directUrl } from '../db/settings.ts';
import { uploadsDir } from '../media/paths.ts';
import { hub, publish } from '../realtime/events.ts';
import { ServiceError } from '../errors.ts';
import { resolveSession, type Viewer } from '../services/sessions.ts';
import { contextOfNode, contextOfRequest, type RequestContext } from '../http/request-context.ts';
import { UploadLocker } from '../http/upload-lock.ts';
import { EnvelopeServer, fromServiceError, refusal, type Refusal } from './upload-refusals.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { admitUpload, finishUpload, registerUpload, uploadCap, uploadOwner } from '../services/uploads.ts';

/** Whether a request path is the upload endpoint or one upload under it. */
export function isUploadPath(pathname: string): boolean {
  return pathname === TUS_ENDPOINT || pathname.startsWith(`${TUS_ENDPOINT}/`);
}

/**
 * The upload id a URL names (`/api/upload/<id>`), or null for the endpoint itself. A request target is read as it
 * came, as tus reads it: normalising it would make `/api/upload/..` the endpoint here while tus acts on the upload
 * `..`, past the ownership check. A fetch Request's URL arrives normalised, and tus reads that one the same way.
 */
function uploadIdOf(url: string): string | null {
  const path = url.startsWith('/') ? url.replace(/[?#][\s\S]*$/, '') : new URL(url).pathname;
  const rest = path.slice(TUS_ENDPOINT.length).replace(/^\/+|\/+$/g, '');
  return rest === '' ? null : rest;
}

/** Upload-Metadata as tus reads it; absent (as on PATCH) or malformed reads as none. */
function metadataOf(header: string | null): Record<string, string | null> | undefined {
  if (!header) return undefined;
  try {
    return Metadata.parse(header);
  } catch {
    return undefined;
  }
}

function kindOf(metadata: Record<string, string | null> | undefined): UploadKind | null {
  const kind = metadata?.kind ?? 'video';
  return (UPLOAD_KINDS as readonly string[]).includes(kind) ? (kind as UploadKind) : null;
}

// Who is uploading, found by the door and read by tus's hooks (keyed by the request object they share).
const uploaders = new WeakMap<object, Viewer>();

function uploaderOf(req: Request): Viewer {
  const node = (req as { runtime?: { node?: { req?: object } } }).runtime?.node?.req;
  const viewer = uploaders.get(node ?? req);
  if (!viewer) throw refusal(401, 'error.unauthorized');
  return viewer;
}

/** The only body type of a PATCH. */
const PATCH_TYPE = 'application/offset+octet-stream';

/** The methods tus serves on the endpoint and on one upload (preflights, OPTIONS, do not reach the door). */
const ENDPOINT_METHODS = ['POST'];
const UPLOAD_METHODS = ['HEAD', 'PATCH', 'DELETE'];

/**
 * Everything the door decides before tus sees a request: the method, the session, and for a new upload its kind,
 * declared length and the user's limit; for an existing one, that it is the user's. `{ viewer }` lets it through.
 */
async function admit(
  context: RequestContext,
  method: string,
  url: string,
  headers: Headers,
): Promise<{ viewer: Viewer } | Refusal> {
  const id = uploadIdOf(url);
  // What tus is here for: creation on the endpoint; HEAD, PATCH and DELETE on an upload. A POST to an upload would
  // have tus create a new one past the checks below, the others answer tus's plain-text 404.
  const allowed = id === null ? ENDPOINT_METHODS : UPLOAD_METHODS;
  if (!allowed.includes(method))
    return refusal(405, 'error.methodNotAllowed', undefined, { allow: [...allowed, 'OPTIONS'].join(', ') });
  // tus answers another protocol version 400 and a PATCH body of another type 400 (or 403 when untyped); the protocol
  // says 412 naming the versions served, and 415.
  if (headers.get('tus-resumable') !== TUS_RESUMABLE)
    return refusal(412, 'error.tusVersion', undefined, { 'tus-version': TUS_VERSION.join(',') });
  if (method === 'PATCH' && headers.get('content-type') !== PATCH_TYPE) return refusal(415, 'error.unsupportedType');
  const token = context.sessionToken;
  const viewer = token ? await resolveSession(token) : null;
  if (!viewer) return refusal(401, 'error.unauthorized');
  if (method === 'POST') {
    const header = headers.get('upload-metadata');
    const metadata = metadataOf(header);
    if (header && !metadata) return refusal(400, 'error.badRequest');
    const kind = kindOf(metadata);
    if (!kind) return refusal(400, 'error.uploadKind');
    // Parallel uploads (tus concatenation) are not offered: tus would answer 501, as if the server had failed.
    if (headers.has('upload-concat')) return refusal(400, 'error.badRequest');
    const declared = headers.get('upload-length');
    // A deferred length would let bytes arrive before the cap could be checked.
    if (declared === null || !/^\d{1,16}$/.test(declared) || headers.has('upload-defer-length'))
      return refusal(400, 'error.uploadLengthRequired');
    const cap = uploadCap(kind);
    if (Number(declared) > cap) return refusal(413, 'error.uploadTooLarge', { max: formatBytes(cap) });
    try {
      await admitUpload(viewer.id);
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(error);
      throw error;
    }
  } else if (id !== null) {
    const owner = await uploadOwner(id);
    // Someone else's upload answers as a missing one: ids are not to be probed.
    if (owner !== viewer.id) return refusal(404, 'error.uploadNotFound');
  }
  return { viewer };
}

let server: Server | undefined;
let serverKey: string | undefined;
let lockPool: pg.Pool | undefined;

/** The topic on which a request asks the holder of upload `id`'s lock to let go. */
const lockTopic = (id: string) => `upload-lock:${id}`;

/**
 * Upload locks that every app server sees: advisory locks on connections of their own (a PATCH holds one while it
 * writes; uploads in flight are few), on the direct line, since a transaction pooler keeps no session.
 */
function uploadLocker(url: string): UploadLocker {
  void lockPool?.end().catch(() => {});
  const pool = (lockPool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 10_000 }));
  pool.on('error', () => {});
  return new UploadLocker({
    connect: () => pool.connect(),
    askRelease: (id) => publish(lockTopic(id), { type: 'release', data: null }),
    onAsk: (id, onAsk) => hub().subscribe([lockTopic(id)], onAsk),
    busy: () => refusal(423, 'error.uploadBusy'),
  });
}

/** The tus server for the current DATA_DIR and database (made again when either changes, as tests do). */
function tus(): Server {
  const directory = uploadsDir();
  const url = directUrl();
  if (!url) throw new Error('DATABASE_URL is not set');
  if (server && serverKey === `${directory}\n${url}`) return server;
  serverKey = `${directory}\n${url}`;
  server = new EnvelopeServer({
    path: TUS_ENDPOINT,
    datastore: new FileStore({ directory }),
    locker: uploadLocker(url),
    relativeLocation: true,
    // The door refuses first, with a message; tus's own check stays as a backstop.
    maxSize: (req) => uploadCap(kindOf(metadataOf(req.headers.get('upload-metadata'))) ?? 'video'),
    allowedOrigins: (origin) => !!corsHeaders(origin)['access-control-allow-origin'],
    allowedCredentials: true,
    allowedHeaders: ['Token'],
    async onUploadCreate(req: Request, upload: Upload) {
      const viewer = uploaderOf(req);
      const metadata = upload.metadata ?? {};
      await registerUpload({
        id: upload.id,
        userId: viewer.id,
        kind: kindOf(metadata) ?? 'video',
        fileName: metadata.filename ?? metadata.name ?? upload.id,
        sizeBytes: upload.size ?? 0,
      });
      return {};
    },
    async onUploadFinish(_req: Request, upload: Upload) {
      try {
        await finishUpload(upload.id);
      } catch (error) {
        if (error instanceof ServiceError) throw fromServiceError(error);
        throw error;
      }
      return {};
    },
  });
  return server;
}

function answer(res: ServerResponse, r: Refusal, origin: string | null): void {
  res.writeHead(r.status_code, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'tus-resumable': '1.0.0',
    ...corsHeaders(origin),
    ...r.headers,
  });
  res.end(r.body);
}

/** Serves a tus request from node:http (server.ts routes isUploadPath() here). */
export async function serveUpload(
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext = contextOfNode(req),
): Promise<void> {
  const method = req.method ?? 'GET';
  const origin = req.headers.origin ?? null;
  if (method !== 'OPTIONS') {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const admitted = await admit(context, method, req.url ?? '/', headers);
    if ('status_code' in admitted) {
      // The body of a refused PATCH is not read: closing keeps the client from sending it all.
      if (method === 'PATCH' || method === 'POST') res.setHeader('connection', 'close');
      return answer(res, admitted, origin);
    }
    uploaders.set(req, admitted.viewer);
  }
  await tus().handle(req, res);
}

/** Serves a tus request as a fetch Request (the Astro door, under `astro dev`). */
export async function handleUpload(
  request: Request,
  context: RequestContext = contextOfRequest(request),
): Promise<Response> {
  if (request.method !== 'OPTIONS') {
    const admitted = await admit(context, request.method, request.url, request.headers);
    if ('status_code' in admitted) {
      return new Response(admitted.body, {
        status: admitted.status_code,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'tus-resumable': '1.0.0',
          ...corsHeaders(request.headers.get('origin')),
          ...admitted.headers,
        },
      });
    }
    uploaders.set(request, admitted.viewer);
  }
  return tus().handleWeb(request);
}
