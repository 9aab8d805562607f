/**
 * Production entry of 闪映: starts the database, then serves the Astro standalone build behind
 * compression, health checks, the media handler and a JSON request log.
 * Run with `node server.ts` (Node >= 22.12 strips the types) after `astro build`.
 */
import { existsSync, readdirSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import compression from 'compression';
import pg from 'pg';
import { t } from './src/i18n/t.ts';
import { ConfigError, loadProcessConfig, prepareAstroEnvironment, useDatabaseUrl } from './src/server/config.ts';
import { db, replicaStatus } from './src/server/db/client.ts';
import { startDatabase } from './src/server/db/lifecycle.ts';
import { isApiPath, serveApi } from './src/server/api/node.ts';
import { logPath } from './src/server/http/log-path.ts';
import { logLine, writeStdio } from './src/server/log.ts';
import { createMediaHandler } from './src/server/http/media.ts';
import { isRemoteStore, mediaStore } from './src/server/media/store.ts';
import { isPageMethod, PAGE_METHODS } from './src/server/http/page-door.ts';
import { createPageAnswers, type PageRender } from './src/server/http/page-answers.ts';
import { ASSETS_PREFIX, loadPrecompressed } from './src/server/http/precompressed.ts';
import { BROTLI_DYNAMIC_WINDOW } from './src/server/encoding.ts';
import { clientErrorAnswer } from './src/server/api/client-error.ts';
import { capConnectionsPerAddress } from './src/server/http/connection-cap.ts';
import { serverLimits } from './src/server/http/server-limits.ts';
import { serverErrorAnswer, unavailableAnswer, type Answer } from './src/server/api/unavailable.ts';
import { contextOfNode, type RequestContext } from './src/server/http/request-context.ts';
import { inRequest } from './src/server/http/request-scope.ts';
import { applySecurityHeaders } from './src/server/http/security-headers.ts';
import { isUploadPath, serveUpload } from './src/server/api/upload.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './src/server/db/availability.ts';
import { startQueue, stopQueue } from './src/server/job-queue.ts';
import { inProcessWorkers, startWorkers } from './src/server/jobs/worker.ts';
import { followOtherServers } from './src/server/cache/shared-writes.ts';
import { followContentPublications } from './src/server/content/publish.ts';
import { hub } from './src/server/realtime/events.ts';
import { isLivePath, serveLive, startLive, stopLive } from './src/server/live/index.ts';
import { isHiddenWorkPage } from './src/server/services/hidden-works.ts';
import { resolveSession } from './src/server/services/sessions.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
// The compression package is typed for Express; it only needs Node's own request and response.
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type Filter = (req: IncomingMessage, res: ServerResponse) => boolean;

// Every setting is read and checked before anything else: one that does not parse stops the start, named.
let settings: ReturnType<typeof loadProcessConfig>;
try {
  settings = loadProcessConfig();
} catch (error) {
  if (error instanceof ConfigError) logLine('error', error.message);
  else logLine('error', 'settings could not be read', { error });
  process.exit(1);
}

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const ENTRY = path.join(ROOT, 'dist', 'server', 'entry.mjs');
const { HOST, PORT } = settings;
const DRAIN_MS = 10_000;
/**
 * While stopping, the listener stays open until no connection and no request has come for QUIET_MS (at most
 * QUIET_MAX_MS), so none queued is reset, and a keep-alive client between two requests sends its next one while it can
 * still be answered (503 with Connection: close) instead of meeting a closed socket.
 */
const QUIET_MS = 500;
const QUIET_MAX_MS = 5_000;
/** At most this long after the signal, requests that had arrived by then are still taken in and answered (see `shutdown`). */
const ARRIVED_MAX_MS = 2_000;
/** How long an error answer (408, 400, 431) may take to leave before its connection is dropped unanswered. */
const CLIENT_ERROR_LINGER_MS = 1_000;
/**
 * SERVER_NAME, when set, names this process in an `X-Served-By` header on every answer: behind a load balancer it
 * tells which app server answered (how the cluster's tests see requests alternate).
 */
const SERVER_NAME = settings.SERVER_NAME;

// Request lines are gathered and written once per turn of the event loop: one write for many requests instead of a
// write (a system call, when stdout is a file or a pipe) per request. 'exit' flushes what is left.
let pendingLines = '';
function logRequest(fields: Record<string, unknown>): void {
  if (!pendingLines) setImmediate(flushRequestLog);
  pendingLines += `${JSON.stringify({ t: new Date().toISOString(), ...fields })}\n`;
}
function flushRequestLog(): void {
  if (!pendingLines) return;
  const lines = pendingLines;
  pendingLines = '';
  writeStdio(process.stdout, lines);
}
process.on('exit', flushRequestLog);

// Admin shutdown of PostgreSQL (57P01 and kin) reaches idle pool clients as errors; they are expected, not fatal.
function isPgShutdown(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^57P0[1-3]$/.test(code);
}

let shuttingDown = false;
/** Set once what had arrived by the signal is taken in: from then on new requests answer 503 (see `shutdown`). */
let refusing = false;
/** Connections accepted and requests begun, counted so that stopping can tell when the loop finds nothing more waiting. */
let takenIn = 0;
let exitCode = 0;
let database: Awaited<ReturnType<typeof startDatabase>> | undefined;
let databaseStarting: Promise<Awaited<ReturnType<typeof startDatabase>>> | undefined;
let server: http.Server | undefined;
let lastConnectionAt = 0;
let lastRequestAt = 0;
let readyPool: pg.Pool | undefined;
const inFlight = new Set<ServerResponse>();

process.on('uncaughtException', (error) => {
  logLine('error', 'uncaughtException', { error });
  if (!isPgShutdown(error)) {
    exitCode = 1;
    void shutdown('uncaughtException');
  }
});
process.on('unhandledRejection', (reason) => {
  logLine('error', 'unhandledRejection', { error: reason });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (shuttingDown) {
      logLine('warn', `second ${signal}: exiting now`);
      process.exit(130);
    }
    void shutdown(signal);
  });
}

/**
 * Stops: requests that had arrived when it began are answered as usual (with `Connection: close`), later ones answer
 * 503 with `Connection: close`; the listener closes once no connection has come for QUIET_MS (a connection queued in the
 * listen backlog is answered, not reset), requests in flight finish (at most DRAIN_MS more), then the database stops
 * and the process exits.
 */
async function shutdown(reason: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logLine('info', `shutting down (${reason})`);
  // A request that had arrived before the signal may still be in the kernel: its connection in the listen backlog, or
  // its bytes unread while the loop was busy (a page rendering). The loop takes them in over its next turns (a
  // connection accepted in one is read in a later one), and they are answered as usual; once two turns in a row have
  // brought nothing new (or ARRIVED_MAX_MS have passed, under steady traffic), what comes is refused.
  const takeInBy = Date.now() + ARRIVED_MAX_MS;
  for (let quietTurns = 0; quietTurns < 2 && Date.now() < takeInBy;) {
    const before = takenIn;
    await new Promise((r) => setImmediate(r));
    quietTurns = takenIn === before ? quietTurns + 1 : 0;
  }
  refusing = true;
  // Live streams never finish on their own: end them (and the RTMP ingest) before draining.
  await stopLive().catch((error: unknown) => logLine('warn', 'live stop failed', { error }));
  if (server) {
    for (const res of inFlight) {
      // Event streams never finish on their own; end them now so the drain is about real requests.
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) res.destroy();
      // A connection whose answer is still coming closes after it, rather than idling into the close below.
      else if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    const quietBy = Date.now() + QUIET_MAX_MS;
    const busy = () => Date.now() - Math.max(lastConnectionAt, lastRequestAt) < QUIET_MS;
    // Each look comes after an I/O poll (setImmediate runs after it): when the loop was blocked longer than QUIET_MS,
    // the connections the kernel queued meanwhile are accepted first, instead of being reset by close() as unseen.
    const polled = () => new Promise((r) => setImmediate(r));
    await polled();
    while (busy() && Date.now() < quietBy) {
      await sleep(QUIET_MS / 5);
      await polled();
    }
    // close() also ends the keep-alive connections that are idle now; the others end as their last response does.
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    const sweep = setInterval(() => server!.closeIdleConnections(), 100);
    const timer = setTimeout(() => {
      logLine('warn', `still ${inFlight.size} request(s) after ${DRAIN_MS} ms: closing them`);
      server!.closeAllConnections();
    }, DRAIN_MS);
    await closed;
    clearInterval(sweep);
    clearTimeout(timer);
  }
  await readyPool?.end().catch(() => {});
  // The LISTEN connection goes before the database does, so that its end is not taken for a loss to reconnect from.
  await hub()
    .close()
    .catch(() => {});
  // A job being encoded is retried by the next worker to start (its heartbeat stops).
  await stopQueue().catch((error: unknown) => logLine('warn', 'job queue stop failed', { error }));
  // A signal during start-up waits for the database to be up, so that it can be stopped cleanly.
  const db = database ?? (await databaseStarting?.catch(() => undefined));
  try {
    await db?.stop();
  } catch (error) {
    exitCode = 1;
    logLine('error', 'database stop failed', { error });
  }
  process.exit(exitCode);
}

/**
 * Logs one line once the response is done, with the request's id (every other line about it carries the same one) and
 * the bytes that went onto the socket for it (status line, headers and body after compression). Reading the socket's
 * counter instead of wrapping write/end keeps this off the hot path.
 */
function track(context: RequestContext, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const socket = req.socket;
  const before = socket.bytesWritten;
  inFlight.add(res);
  res.once('close', () => {
    inFlight.delete(res);
    logRequest({
      requestId: context.id,
      method: req.method,
      // No query string (it may carry search words or tokens), and no typed text from the path (log-path.ts).
      path: logPath(context.path),
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      bytes: socket.bytesWritten - before,
      ...(res.writableFinished ? {} : { aborted: true }),
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A 503 (database down, stopping, too many connections) in the answer's family; `close` ends the connection after it. */
function unavailable(req: IncomingMessage, res: ServerResponse, retryAfterS: number, close = false): void {
  send(req, res, unavailableAnswer(pathname(req), retryAfterS, close));
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readiness(res: ServerResponse): Promise<void> {
  if (shuttingDown) return json(res, 503, { status: 'stopping' });
  try {
    await readyPool!.query('SELECT 1');
    // Read replicas, in the order DATABASE_REPLICA_URLS names them, by state and lag only (no host names): one down
    // or lagging leaves this server ready, since the primary answers their reads.
    db();
    const replicas = replicaStatus()?.replicas.map(({ state, lagMs }) => ({
      state,
      ...(lagMs === undefined ? {} : { lagMs }),
    }));
    json(res, 200, { status: 'ok', database: 'ok', ...(replicas?.length ? { replicas } : {}) });
  } catch (error) {
    // The reason goes to the log, not to whoever asks: it may name hosts, ports or users.
    logLine('warn', 'readiness: database unavailable', { error, stack: undefined });
    json(res, 503, { status: 'unavailable' });
  }
}

// Partial content must keep its byte offsets, and media is already compressed; event streams must not be buffered.
function shouldCompress(req: IncomingMessage, res: ServerResponse): boolean {
  const type = String(res.getHeader('content-type') ?? '');
  if (res.statusCode === 206 || res.getHeader('content-range') !== undefined) return false;
  if (/^(text\/event-stream|video\/|audio\/)/.test(type)) return false;
  if (/^image\//.test(type) && !type.startsWith('image/svg')) return false;
  return (compression.filter as unknown as Filter)(req, res);
}

async function main(): Promise<void> {
  if (!existsSync(ENTRY)) {
    logLine(
      'error',
      `${path.relative(process.cwd(), ENTRY)} is missing: run \`npm run build\` (or \`npm start\`, which builds when needed)`,
    );
    process.exit(1);
  }

  const dataDir = settings.DATA_DIR;
  // A MEDIA_STORE that does not parse stops the start here, with its reason, rather than at the first upload.
  const remoteMedia = isRemoteStore() ? mediaStore() : undefined;
  databaseStarting = startDatabase({
    dataDir,
    // The embedded server is restarted with backoff if its postmaster dies; requests meanwhile answer 503.
    supervise: true,
  });
  database = await databaseStarting;
  logLine('info', database.embedded ? `embedded PostgreSQL under ${dataDir}` : 'PostgreSQL from DATABASE_URL');
  if (shuttingDown) return;
  useDatabaseUrl(database.url);
  readyPool = new pg.Pool({
    connectionString: database.url,
    max: 2,
    connectionTimeoutMillis: 2_000,
    query_timeout: 2_000,
  });
  readyPool.on('error', (error) => {
    if (!isPgShutdown(error)) logLine('warn', 'readiness pool error', { error });
  });

  // Uploads hand their processing to the job queue; this process also works the queue unless WORKERS=0 (then
  // `npm run worker` does, on the same database).
  const jobs = await startQueue(database.url);
  if (inProcessWorkers()) await startWorkers(jobs);

  prepareAstroEnvironment();
  const astro = (await import(pathToFileURL(ENTRY).href)) as { handler: Handler };

  const builtMedia = path.join(ROOT, 'dist', 'client', 'media');
  const sampleMedia = existsSync(builtMedia) ? builtMedia : path.join(ROOT, 'public', 'media');
  // With a bucket, what is not shipped with the app is streamed from it (a CDN at MEDIA_BASE_URL usually answers first).
  const media = createMediaHandler(
    remoteMedia ? { roots: [sampleMedia], store: remoteMedia } : { roots: [sampleMedia, path.join(dataDir, 'media')] },
  );
  const client = path.join(ROOT, 'dist', 'client');
  const assets = loadPrecompressed(path.join(client, '_astro'));
  // Files the adapter serves as they are: they skip the page cache (pages, prerendered ones too, go through it).
  const files = staticPaths(client);
  const pages = createPageAnswers({
    hidden: isHiddenWorkPage,
    member: (token) => resolveSession(token).then((viewer) => viewer?.id ?? null),
  });
  // Writes taken by the other app servers on this database make the copies here stale too.
  followOtherServers();
  // Editors' content published through any app server drops the copies here too.
  followContentPublications();
  await startLive();
  const compress = compression({
    filter: shouldCompress as never,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_DYNAMIC_WINDOW } },
  }) as unknown as Middleware;

  const route = (context: RequestContext, req: IncomingMessage, res: ServerResponse): void => {
    const where = context.path;
    if (where === '/healthz') return json(res, 200, { status: 'ok' });
    if (where === '/readyz') return void readiness(res);
    if (where.startsWith('/media/'))
      return void media(req, res, context).catch((error: unknown) => fail(req, res, error));
    // Static files and prerendered pages never reach the middleware's own check (page-door.ts).
    if (!isPageMethod(req.method)) {
      res.writeHead(405, {
        Allow: PAGE_METHODS.join(', '),
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      return void res.end(t('error.methodNotAllowed'));
    }
    astro.handler(req, res);
  };

  // A page through the compression middleware and Astro; `prepare` patches the response in between (page-answers.ts).
  const renderPage: PageRender = (req, res, prepare) =>
    compress(req, res, (error) => {
      if (error) return fail(req, res, error);
      try {
        prepare(res);
        astro.handler(req, res);
      } catch (error) {
        fail(req, res, error);
      }
    });
  const isPage = (where: string) =>
    !where.startsWith('/media/') &&
    !where.startsWith(ASSETS_PREFIX) &&
    where !== '/healthz' &&
    where !== '/readyz' &&
    !files.has(where);

  const limits = serverLimits();
  server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often the time-outs above are checked (Node's default, 30 s, would let a slow client stay that much longer).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    (req, res) => handle(req, res),
  );
  capConnectionsPerAddress(server, limits.maxConnectionsPerIp);
  server.on('connection', () => {
    lastConnectionAt = Date.now();
    takenIn++;
  });

  /**
   * Every request: its context is read here, once (request-context.ts), and everything that answers it runs in its
   * scope (request-scope.ts), so each log line about it carries its id.
   */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    lastRequestAt = Date.now();
    takenIn++;
    const context = contextOfNode(req);
    inRequest(context, () => answer(context, req, res));
  }

  function answer(context: RequestContext, req: IncomingMessage, res: ServerResponse): void {
    track(context, req, res);
    if (SERVER_NAME) res.setHeader('X-Served-By', SERVER_NAME);
    applySecurityHeaders(context, res);
    if (refusing) return unavailable(req, res, 1, true);
    // Arrived before the signal: answered, but the connection ends after it.
    if (shuttingDown) res.setHeader('Connection', 'close');
    // The API router is framework-free and compresses its own answers: skipping Astro's page pipeline and the
    // compression middleware's stream wrapping is what lets a hot read come near a bare node:http (bench/api.mjs).
    const where = context.path;
    // tus uploads stream request bodies of any size to disk; they skip the API router, which reads bodies whole.
    if (isUploadPath(where))
      return void serveUpload(req, res, context).catch((error: unknown) => fail(req, res, error));
    if (isApiPath(where)) return void serveApi(req, res, context).catch((error: unknown) => fail(req, res, error));
    if (isLivePath(where)) return void serveLive(req, res, where).catch((error: unknown) => fail(req, res, error));
    // Hashed assets compressed at build time; pages from the shared cache when anonymous (page-answers.ts).
    if (where.startsWith(ASSETS_PREFIX) && assets.serve(req, res, where)) return;
    if (isPageMethod(req.method) && isPage(where)) return pages.answer(context, req, res, renderPage);
    compress(req, res, (error) => {
      if (error) return fail(req, res, error);
      try {
        route(context, req, res);
      } catch (error) {
        fail(req, res, error);
      }
    });
  }
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // Headers or a body that did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS) are a 408, a
    // request line or headers past Node's limit a 431, the rest a 400; under /api in the envelope (client-error.ts).
    // The socket goes as soon as the answer is with the kernel: ending it only half-closes it, and a client that never
    // reads nor closes would keep its descriptor for as long as it likes. One whose unread answer does not even fit in
    // the kernel's buffer loses it after CLIENT_ERROR_LINGER_MS.
    if (!socket.writable) return void socket.destroy();
    socket.end(clientErrorAnswer(error.code, error.rawPacket), () => socket.destroy());
    const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
    socket.once('close', () => clearTimeout(linger));
  });
  await new Promise<void>((resolve, reject) => {
    server!.once('error', reject);
    server!.listen(PORT, HOST, () => resolve());
  });
  const shown = HOST === '0.0.0.0' || HOST === '::' ? 'localhost' : HOST.includes(':') ? `[${HOST}]` : HOST;
  console.log(`闪映 listening on http://${shown}:${PORT}`);
}

function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  logLine('error', 'request failed', { path: logPath(pathname(req)), error });
  if (!res.headersSent && isDatabaseUnavailable(error)) unavailable(req, res, UNAVAILABLE_RETRY_AFTER_S);
  else if (!res.headersSent) send(req, res, serverErrorAnswer(pathname(req)));
  else res.destroy();
}

/** The URL paths of the files under `dir` (static files and prerendered pages), but for media and the hashed assets. */
function staticPaths(dir: string, prefix = '/'): Set<string> {
  const found = new Set<string>();
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const url = `${prefix}${entry.name}`;
    if (url === '/media' || url === '/_astro') continue;
    if (entry.isDirectory()) for (const inner of staticPaths(path.join(dir, entry.name), `${url}/`)) found.add(inner);
    else found.add(url);
  }
  return found;
}

function pathname(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] ?? '/';
}

main().catch(async (error: unknown) => {
  logLine('error', 'start-up failed', { error });
  exitCode = 1;
  await shutdown('start-up failure');
});
