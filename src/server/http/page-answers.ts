/**
 * How server.ts answers a page request. A page of public content (every page but those about the viewer,
 * personal-pages.ts) is one HTML for every viewer: its render is handed the request without the session, so a member's
 * visit is answered exactly as a visitor's, from the shared page cache (cache/page-cache.ts), rendered once for
 * everyone and compressed once per encoding, with `Cache-Control: public, s-maxage, stale-while-revalidate`, a strong
 * ETag (304 on If-None-Match) and no Vary on the session, so a CDN or nginx in front keeps one copy for all. A page
 * about the viewer is rendered for a request that carries a session (the Token header or the session cookie, valid or
 * not), `private, no-store`, and kept for nobody else; the member's profile, 关注 and 朋友 are kept for that member alone
 * for a few seconds (personal-pages.ts), and its anonymous copy is shared but varies on Cookie and Token. A HEAD is
 * answered exactly as a GET, headers and revalidation alike (it renders for the cache as a GET would, and sends no
 * body). Every page answer says `text/html; charset=utf-8`.
 *
 * A request carries a session when it has a session token, read once for pages and this door alike (the request
 * context's `sessionToken`: the Token header, else the session cookie). A render is kept only if it is HTML, 200 or
 * 404, sets no cookie and does not forbid caching itself (the QR and settings pages, search results).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { onAnonymousContentChange } from '../cache/anonymous-content.ts';
import { onContentPublished } from '../cache/content-published.ts';
import { onMemberWrite } from '../cache/member-writes.ts';
import { PAGE_FRESH_MS, PAGE_STALE_MS, PageCache, type PageAnswer, type PageEntry } from '../cache/page-cache.ts';
import { config } from '../config.ts';
import { compressBody } from '../encoding.ts';
import { isKeptForMember, isPersonalPage } from './personal-pages.ts';
import { withoutSessionCookie, type RequestContext } from './request-context.ts';
import { inRequest } from './request-scope.ts';
import { withMarksHint } from './marks-hint.ts';

/** What a CDN in front (and this process) may do with an anonymous page: reuse it for PAGE_FRESH_MS, then briefly while refreshing. */
export const SHARED_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PAGE_FRESH_MS / 1000}, stale-while-revalidate=${PAGE_STALE_MS / 1000}`;
/** What nobody may keep: pages rendered for a request with a session, and anything the shared cache does not hold. */
export const PERSONAL_PAGE_CACHE_CONTROL = 'private, no-store';
/** A page of public content differs only by encoding: a member is answered the same copy as a visitor. */
export const SHARED_PAGE_VARY = 'Accept-Encoding';
/** The anonymous copy of a page about the viewer: a request with a cookie or a token may get another. */
export const VISITOR_PAGE_VARY = 'Accept-Encoding, Cookie, Token';
const HTML_TYPE = 'text/html; charset=utf-8';
/** Statuses whose pages are kept: a page, and the page of something missing. Redirects, 429 and 5xx never are. */
const KEPT_STATUSES = new Set([200, 404]);
/** Longer request targets are answered without the cache (they would only push real pages out). */
const MAX_KEY_LENGTH = 2048;
/** Bodies shorter than this go out as they are: compressing them saves less than it costs. */
const COMPRESS_MIN = 1024;
/** Headers of one response on one connection, not of the page: never kept with it. */
const PER_RESPONSE = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'last-modified',
  'accept-ranges',
  'content-encoding',
  'content-range',
  'vary',
  'cache-control',
  'age',
]);
/** Request headers a render for the cache must not see: the cache answers conditions and ranges itself. */
const CONDITIONAL = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'range', 'if-range'];

/**
 * Renders a page on `res` (server.ts: the compression middleware, then Astro); `prepare` runs on `res` right before
 * Astro is handed it, so that what it patches sits between Astro and the compression.
 */
export type PageRender = (req: IncomingMessage, res: ServerResponse, prepare: (res: ServerResponse) => void) => void;

export interface PageAnswers {
  /** Answers one page request (GET or HEAD). */
  answer(context: RequestContext, req: IncomingMessage, res: ServerResponse, render: PageRender): void;
  /** The cache behind it (tests). */
  readonly cache: PageCache;
  /** The copies kept for members of the pages about them (tests). */
  readonly own: PageCache;
}

/** Members' own copies kept at once (personal-pages.ts), and their bytes: the least recently served goes first. */
const OWN_PAGE_ENTRIES = 1_000;
const OWN_PAGE_BYTES = 16 * 1024 * 1024;

/** Pages that no cache keeps, whoever asks, a visitor included (`private, no-store`): the staff console. */
const NEVER_SHARED = /^\/admin(?:[/?#]|$)/;

/** Whether a request target is a page that no cache keeps. */
export function isNeverShared(url: string): boolean {
  return NEVER_SHARED.test(url);
}

/**
 * Takes the session off a request, so that its render cannot see who asked: the context's token, and the Token header
 * and the session cookie from the headers the render is handed (other cookies stay).
 */
export function forgetSession(context: RequestContext, req: IncomingMessage): RequestContext {
  delete req.headers.token;
  const cookie = withoutSessionCookie(req.headers.cookie);
  if (cookie === undefined) delete req.headers.cookie;
  else req.headers.cookie = cookie;
  return context.sessionToken ? { ...context, sessionToken: undefined, tokenFromHeader: false } : context;
}

/**
 * The cache key of a request target: its path as sent and its query with the parameters sorted (`?b=1&a=2` and
 * `?a=2&b=1` are one page), or undefined when it is too long to be worth keeping.
 */
export function pageKey(url: string): string | undefined {
  if (url.length > MAX_KEY_LENGTH) return undefined;
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  params.sort();
  const query = params.toString();
  return query ? `${url.slice(0, q)}?${query}` : url.slice(0, q);
}

/** Whether an If-None-Match header names one of the representations of a body whose hash is `hash`. */
export function matchesEtag(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    if (value === '*') return true;
    const bare = value.replace(/^"|"$/g, '');
    return bare === hash || bare.startsWith(`${hash}-`);
  });
}

/** The strong ETag of one representation: each encoding of the same HTML is its own. */
export function etagOf(hash: string, encoding: string | undefined): string {
  return `"${encoding ? `${hash}-${encoding}` : hash}"`;
}

function isHtml(type: unknown): boolean {
  return /^text\/html\b/i.test(String(type ?? ''));
}

/**
 * A page answer that says it never changes at its address (/chrome/parts, whose address carries the build and the
 * settings it shows): its own Cache-Control stands, for a visitor and a viewer alike, and the page cache leaves it be.
 */
function immutable(value: unknown): boolean {
  return /\bimmutable\b/i.test(String(value ?? ''));
}

/** A page answer's own Cache-Control forbids a shared copy (it is personal, or every visit must reach the page). */
function forbidsSharing(value: unknown): boolean {
  return /\b(private|no-store|no-cache)\b/i.test(String(value ?? ''));
}

/** `text/html` as Astro sends it, with the charset every page is written in. */
function withCharset(res: ServerResponse): void {
  const type = String(res.getHeader('content-type') ?? '');
  if (isHtml(type) && !/charset=/i.test(type)) res.setHeader('content-type', HTML_TYPE);
}

/** writeHead's optional status message and headers, the headers applied to `res` so that getHeaders sees them all. */
function absorbHeaders(res: ServerResponse, rest: unknown[]): string | undefined {
  const message = typeof rest[0] === 'string' ? rest[0] : undefined;
  const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as
    OutgoingHttpHeaders | readonly string[] | undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
  }
  return message;
}

type WriteHead = ServerResponse['writeHead'];

/** Patches a page answer's writeHead: HTML gets its charset, no validators and, unless it says otherwise itself, `private, no-store`. */
function personal(res: ServerResponse): void {
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const message = absorbHeaders(this, rest);
    if (isHtml(this.getHeader('content-type'))) {
      withCharset(this);
      const own = this.getHeader('cache-control');
      if (!forbidsSharing(own) && !immutable(own)) this.setHeader('cache-control', PERSONAL_PAGE_CACHE_CONTROL);
      // Validators of a copy nobody keeps (the static handler's, on a prerendered page) would only invite revalidation.
      this.removeHeader('etag');
      this.removeHeader('last-modified');
    }
    return message === undefined ? writeHead.call(this, status) : writeHead.call(this, status, message);
  } as WriteHead;
}

/** Adds what write() or end() was given to `chunks`; a callback in the chunk's place is not a chunk. */
function holdChunk(chunks: Buffer[], chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  chunks.push(
    typeof chunk === 'string'
      ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : Buffer.from(chunk as Uint8Array),
  );
}

/**
 * write() and end() for a response whose answer may be held back. The first of them decides (writeHead with the
 * status so far). An answer not held goes out as it comes (its writeHead has put the originals back). A held answer's
 * chunks go to `chunks`, their callbacks called as if written, and end() hands it to `finish` with end's callback.
 */
function holdingWrites<H>(
  chunks: Buffer[],
  decided: () => boolean,
  holding: () => H | undefined,
  finish: (res: ServerResponse, held: H, callback: (() => void) | undefined) => void,
): Pick<ServerResponse, 'write' | 'end'> {
  const write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (!decided()) this.writeHead(this.statusCode);
    if (holding() === undefined) return (this.write as (...a: unknown[]) => boolean)(chunk, ...rest);
    holdChunk(chunks, chunk, rest[0]);
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  } as ServerResponse['write'];
  const end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!decided()) this.writeHead(this.statusCode);
    const held = holding();
    if (held === undefined) return (this.end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
    holdChunk(chunks, chunk, rest[0]);
    finish(this, held, [chunk, ...rest].find((arg) => typeof arg === 'function') as (() => void) | undefined);
    return this;
  } as ServerResponse['end'];
  return { write, end };
}

/**
 * Patches a page answer rendered for one request (a GET with a session) so that its HTML is held until complete, then
 * compressed in one go and sent with its length, as the shared path sends a page. Astro writes a page in many small
 * chunks: through the streaming compression middleware each was a compression call and a socket write of its own (a
 * logged-in /video/{id} spent about 13 % of its CPU in zlib and 12 % in socket writes). The page still goes out as
 * `personal` says; what is not HTML (a redirect) goes out as it comes.
 */
function heldPersonal(context: RequestContext): (res: ServerResponse) => void {
  return (target) => {
    const original = { writeHead: target.writeHead, write: target.write, end: target.end };
    const restore = () => Object.assign(target, original);
    const chunks: Buffer[] = [];
    let holding: { status: number; message: string | undefined } | undefined;
    let decided = false;

    target.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      decided = true;
      const message = absorbHeaders(this, rest);
      if (isHtml(this.getHeader('content-type')) && !this.hasHeader('content-encoding')) {
        holding = { status, message };
        return this;
      }
      restore();
      personal(this);
      return message === undefined ? this.writeHead(status) : this.writeHead(status, message);
    } as WriteHead;

    Object.assign(
      target,
      holdingWrites(
        chunks,
        () => decided,
        () => holding,
        (res, { status, message }, callback) => {
          restore();
          const body = Buffer.concat(chunks);
          const send = (bytes: Buffer, encoding?: string) => {
            if (res.destroyed) return;
            if (encoding) res.setHeader('content-encoding', encoding);
            res.setHeader('content-length', bytes.byteLength);
            personal(res);
            if (message === undefined) res.writeHead(status);
            else res.writeHead(status, message);
            res.end(bytes, callback);
          };
          const encoding = body.byteLength >= COMPRESS_MIN ? context.encoding : undefined;
          if (!encoding) send(body);
          // Compression failed (out of memory): the page as it is.
          else
            compressBody(body, encoding).then(
              (packed) => send(packed, encoding),
              () => send(body),
            );
        },
      ),
    );
  };
}

/**
 * Renders on `res` and, when the answer may be shared, holds it back and resolves with it (the caller then answers
 * from the cache entry made of it); any other answer goes out as it comes, as `personal` would send it, and resolves
 * undefined. Rejects when the client leaves before a held-back answer is complete.
 */
function capture(req: IncomingMessage, res: ServerResponse, render: PageRender): Promise<PageAnswer | undefined> {
  return new Promise((resolve, reject) => {
    render(req, res, (target) => {
      const original = { writeHead: target.writeHead, write: target.write, end: target.end };
      const restore = () => Object.assign(target, original);
      // The door's headers (security headers), so that only what the render itself set is kept with the page.
      const before = new Map(Object.entries(target.getHeaders()).map(([name, value]) => [name, String(value)]));
      const chunks: Buffer[] = [];
      let holding: { status: number; headers: Record<string, string | string[]> } | undefined;
      let decided = false;
      const onClose = () => reject(new Error('the client left before the page was rendered'));
      target.once('close', onClose);

      target.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
        decided = true;
        const message = absorbHeaders(this, rest);
        const shareable =
          isHtml(this.getHeader('content-type')) &&
          KEPT_STATUSES.has(status) &&
          !this.hasHeader('set-cookie') &&
          !forbidsSharing(this.getHeader('cache-control')) &&
          !immutable(this.getHeader('cache-control'));
        if (!shareable) {
          restore();
          target.off('close', onClose);
          resolve(undefined);
          personal(this);
          return message === undefined ? this.writeHead(status) : this.writeHead(status, message);
        }
        withCharset(this);
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(this.getHeaders())) {
          if (value === undefined || PER_RESPONSE.has(name) || before.get(name) === String(value)) continue;
          headers[name] = typeof value === 'number' ? String(value) : value;
        }
        holding = { status, headers };
        return this;
      } as WriteHead;

      Object.assign(
        target,
        holdingWrites(
          chunks,
          () => decided,
          () => holding,
          (_res, held) => {
            restore();
            target.off('close', onClose);
            // The member's marks call named on the page, so that it goes out before the page has been read (marks-hint.ts).
            resolve({ status: held.status, headers: held.headers, body: withMarksHint(Buffer.concat(chunks)) });
          },
        ),
      );
    });
  });
}

/**
 * Writes a kept page: its own headers, the cache's, and the body in the encoding the client takes (304 when it has it).
 * A member's own copy (`own`) goes out as a page rendered for them does: `private, no-store`, with no validators.
 */
function serve(
  context: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  cache: PageCache,
  entry: PageEntry,
  now: number,
  ifNoneMatch = req.headers['if-none-match'],
  own = false,
): void {
  const encoding = entry.body.byteLength >= COMPRESS_MIN ? context.encoding : undefined;
  res.statusCode = entry.status;
  for (const name in entry.headers) res.setHeader(name, entry.headers[name]!);
  if (own) {
    res.setHeader('cache-control', PERSONAL_PAGE_CACHE_CONTROL);
    res.setHeader('vary', SHARED_PAGE_VARY);
  } else {
    res.setHeader('cache-control', SHARED_PAGE_CACHE_CONTROL);
    res.setHeader('vary', isPersonalPage(context.path) ? VISITOR_PAGE_VARY : SHARED_PAGE_VARY);
    res.setHeader('etag', etagOf(entry.hash, encoding));
    res.setHeader('age', Math.max(0, Math.floor((now - entry.storedAt) / 1000)));
  }
  if (!own && entry.status === 200 && matchesEtag(ifNoneMatch, entry.hash)) {
    res.statusCode = 304;
    res.removeHeader('content-type');
    return void res.end();
  }
  const send = (body: Buffer) => {
    if (encoding) res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', body.byteLength);
    // A HEAD's response sends no body whatever is handed to it (node:http knows its request's method).
    res.end(body);
  };
  if (!encoding) return send(entry.body);
  cache.encodedBody(entry, encoding).then(send, () => {
    // Compression failed (out of memory): the page as it is.
    if (!own) res.setHeader('etag', etagOf(entry.hash, undefined));
    send(entry.body);
  });
}

/**
 * The page door. With `enabled` false (PAGE_CACHE=off) nothing is kept or shared between requests: every anonymous
 * GET is rendered and compressed for itself, still with the shared headers and ETag (a CDN in front may keep it).
 */
export function createPageAnswers({
  enabled = config().PAGE_CACHE,
  cache = new PageCache({ refreshMinMs: config().PAGE_REFRESH_MIN_MS }),
  now = Date.now,
  hidden = (() => undefined) as (path: string) => Promise<boolean> | undefined,
  member = (() => Promise.resolve(null)) as (token: string) => Promise<number | null>,
  own = new PageCache({
    staleMs: 0,
    refreshMinMs: config().PAGE_REFRESH_MIN_MS,
    maxEntries: OWN_PAGE_ENTRIES,
    maxBytes: OWN_PAGE_BYTES,
  }),
} = {}): PageAnswers {
  onAnonymousContentChange((videos) => cache.invalidate(videos.map((id) => `/video/${id}`)));
  // A member's own copies: their write ends theirs at once; anyone's write, every copy a second old (personal-pages.ts).
  onMemberWrite((id) => own.forget(String(id)));
  onAnonymousContentChange(() => own.invalidate());
  // Editors' content shows on its own pages, or on every page (the chrome): those go at once (content/publish.ts).
  onContentPublished((paths) => (paths === 'all' ? cache.clear() : cache.invalidate(paths)));

  /**
   * Renders the page for the cache on this request's own response, which then gets the entry (or the answer as it
   * went). A HEAD renders as the GET it stands for: the page is kept, and the response, a HEAD's, sends no body.
   */
  function renderShared(
    context: RequestContext,
    req: IncomingMessage,
    res: ServerResponse,
    render: PageRender,
    key: string,
    into = cache,
  ): void {
    const ifNoneMatch = req.headers['if-none-match'];
    for (const name of CONDITIONAL) delete req.headers[name];
    const head = req.method === 'HEAD';
    if (head) req.method = 'GET';
    const made = enabled
      ? into.fill(key, () => capture(req, res, render))
      : capture(req, res, render).then(
          (answer) => answer && into.entry(answer),
          () => undefined,
        );
    void made.then((entry) => {
      if (head) req.method = 'HEAD';
      if (entry && !res.headersSent && !res.destroyed)
        serve(context, req, res, into, entry, now(), ifNoneMatch, into === own);
    });
  }

  /**
   * A page kept for the member it is about (personal-pages.ts): their fresh copy if there is one, else a render for
   * them that becomes it (concurrent visits of theirs wait for one render). A session that names nobody is rendered for
   * itself, as before: the session is checked on every visit, so a copy outlives no logout.
   */
  function answerOwn(
    context: RequestContext,
    req: IncomingMessage,
    res: ServerResponse,
    render: PageRender,
    key: string,
  ): void {
    void member(context.sessionToken!)
      .catch(() => null)
      .then((id) => {
        if (res.destroyed) return;
        if (id === null) return render(req, res, req.method === 'GET' ? heldPersonal(context) : personal);
        const ownKey = `${id}\n${key}`;
        const found = own.lookup(ownKey);
        if (found?.fresh) return serve(context, req, res, own, found.entry, now(), undefined, true);
        const pending = own.pending(ownKey);
        // Their render under way may turn out not to be kept (it set a cookie, it failed): then each renders its own.
        if (pending)
          return void pending.then((entry) =>
            entry
              ? serve(context, req, res, own, entry, now(), undefined, true)
              : render(req, res, req.method === 'GET' ? heldPersonal(context) : personal),
          );
        renderShared(context, req, res, render, ownKey, own);
      });
  }

  function answer(context: RequestContext, req: IncomingMessage, res: ServerResponse, render: PageRender): void {
    const key = req.method === 'GET' || req.method === 'HEAD' ? pageKey(req.url ?? '/') : undefined;
    // A request with a session (valid or not), on a page about the viewer, is rendered for itself alone, or answered
    // from the copy kept for that member.
    if (key && context.sessionToken && enabled && isKeptForMember(context.path))
      return answerOwn(context, req, res, render, key);
    if (!key || context.sessionToken || isNeverShared(key))
      return render(req, res, req.method === 'GET' ? heldPersonal(context) : personal);
    if (!enabled) return renderShared(context, req, res, render, key);
    const found = cache.lookup(key);
    if (found?.fresh) return serve(context, req, res, cache, found.entry, now());
    const pending = cache.pending(key);
    // Stale while one render refreshes it.
    if (found && pending) return serve(context, req, res, cache, found.entry, now());
    if (pending) {
      void pending.then((entry) =>
        entry ? serve(context, req, res, cache, entry, now()) : render(req, res, personal),
      );
      return;
    }
    renderShared(context, req, res, render, key);
  }

  return {
    cache,
    own,
    answer(context, req, res, render) {
      if (isPersonalPage(context.path)) return answer(context, req, res, render);
      // A page of public content never sees who asked: the member gets the visitor's page, shared. Its render runs on
      // behalf of the request without the session (the page middleware reads the request from that scope).
      const shared = () => {
        const anonymous = forgetSession(context, req);
        if (anonymous !== context) return inRequest(anonymous, () => answer(anonymous, req, res, render));
        answer(context, req, res, render);
      };
      // The page of a work hidden from visitors is the exception: its author or a friend is shown it, on a page
      // rendered for them.
      // A kept 200 of the page already says the work is for everyone: no need to ask.
      const kept = context.sessionToken ? cache.lookup(pageKey(req.url ?? '/') ?? '') : undefined;
      const asked = context.sessionToken && kept?.entry.status !== 200 ? hidden(context.path) : undefined;
      if (!asked) return shared();
      void asked.catch(() => false).then((theirs) => (theirs ? answer(context, req, res, render) : shared()));
    },
  };
}
