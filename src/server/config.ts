/**
 * Every setting of 闪映, read from the environment and validated in one place: each variable with its default and its
 * meaning beside it (the README's settings table is made from this list, and a test keeps the two equal). A value that
 * does not parse stops the start with a message naming the variable. Nothing else reads `process.env`: modules call
 * `config()` and read the variable's parsed value (`config().PAGE_CACHE` is a boolean, `config().PORT` a number).
 *
 * One configuration per process: server.ts loads it before anything else runs, and the Astro build, which carries its
 * own copy of this module, finds the same object (it is kept on `globalThis`), with the URL of the database the server
 * started. An empty variable is an unset one, everywhere.
 */
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE, knownTimeZone, useTimeZone } from '../shared/wall-clock.ts';
import { REFRESH_MIN_MS } from './cache/anonymous-content.ts';

type Env = Record<string, string | undefined>;

const ON = /^(1|true|yes|on)$/i;
const OFF = /^(0|false|no|off)$/i;

/** A switch: 1, true, yes or on; 0, false, no or off. */
const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      if (ON.test(value)) return true;
      if (OFF.test(value)) return false;
      ctx.addIssue({ code: 'custom', message: 'expected on or off (1, true, yes; 0, false, no)' });
      return z.NEVER;
    });

/** A whole number from `min` up (to `max`), with a default. */
const whole = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({
        code: 'custom',
        message: `expected a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`,
      });
      return z.NEVER;
    });

/** A number (fractions allowed) of at least `min`. */
const decimal = (min: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
      if (n >= min) return n;
      ctx.addIssue({ code: 'custom', message: `expected a number of at least ${min}` });
      return z.NEVER;
    });

/** An absolute URL with one of `schemes` (without the colon). */
const url = (schemes: string[], what = `an absolute ${schemes.join(' or ')} URL`) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || (URL.canParse(value) && schemes.includes(urlScheme(value))), {
      message: `expected ${what}`,
    });

const urlScheme = (value: string) => new URL(value).protocol.slice(0, -1);

/** A comma-separated list, spaces and empty items aside. */
const list = (item: (value: string) => boolean, what: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const items = (value ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      if (items.every(item)) return items;
      ctx.addIssue({ code: 'custom', message: `expected a comma-separated list of ${what}` });
      return z.NEVER;
    });

const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value);
const postgresUrl = z
  .string()
  .optional()
  .refine((value) => value === undefined || isPostgresUrl(value), { message: 'expected a postgres:// URL' });

/** A file or folder, as an absolute path (a relative one is taken from the working directory). */
const place = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : path.resolve(value)));

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Where published media goes: this machine's DATA_DIR/media, or an S3-compatible bucket under a key prefix. */
export type MediaStoreSetting = { kind: 'local' } | { kind: 's3'; bucket: string; prefix: string };

/** MEDIA_STORE: 'local', or `s3://bucket[/prefix]` with a prefix of plain '/'-separated segments. */
const mediaStore = z
  .string()
  .optional()
  .transform((value, ctx): MediaStoreSetting => {
    if (value === undefined || value === 'local') return { kind: 'local' };
    const match = /^s3:\/\/([^/]+)\/*(.*)$/.exec(value);
    const prefix = match?.[2]?.replace(/\/+$/, '') ?? '';
    const segments = prefix.split('/');
    if (match && BUCKET.test(match[1]!) && (!prefix || !segments.some((s) => s === '' || s === '.' || s === '..')))
      return { kind: 's3', bucket: match[1]!, prefix };
    ctx.addIssue({ code: 'custom', message: "expected 'local' or s3://<bucket>[/<prefix>]" });
    return z.NEVER;
  });

/** PUBLIC_URL: an absolute http(s) URL, kept as its origin and path without the trailing slash. */
const publicUrl = url(['http', 'https']).transform((value) => {
  if (value === undefined) return undefined;
  const parsed = new URL(value);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
});

/** An origin as browsers send it in `Origin`: scheme, host and a port other than the scheme's own. */
const isOrigin = (value: string) =>
  URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol) && /^[^/]*\/\/[^/]+\/?$/.test(value);

/**
 * The settings, by variable. `.describe()` is the meaning, `.meta({ shown })` the default as the README shows it when
 * the parsed default alone would not say it well.
 */
export const SETTINGS = z.object({
  HOST: z.string().default('0.0.0.0').describe('Address the HTTP server listens on.'),
  PORT: whole(4321, 0, 65_535).describe('Port the HTTP server listens on.'),
  DATA_DIR: z
    .string()
    .default('./data')
    .transform((value) => path.resolve(value))
    .describe(
      'Local state: the embedded PostgreSQL cluster (`pg/`), uploaded media (`media/`, unless `MEDIA_STORE` names a bucket), uploads in progress (`uploads/`, unless `UPLOADS_DIR` is set) and the outbox of login-code mail without `SMTP_URL` (`outbox/`).',
    )
    .meta({ shown: '`./data`' }),
  DATABASE_URL: postgresUrl.describe(
    'Use this PostgreSQL server instead of the embedded one (`postgres://user:pass@host:5432/db`); migrations and the seed run against it at start-up.',
  ),
  DATABASE_DIRECT_URL: postgresUrl
    .describe(
      'A direct (session) connection to the same primary when `DATABASE_URL` goes through a transaction pooler such as PgBouncer: LISTEN for live events, and the advisory locks of migrations and the seed, need a session of their own, as do the per-upload locks of tus.',
    )
    .meta({ shown: '`DATABASE_URL`' }),
  DATABASE_REPLICA_URLS: list(isPostgresUrl, 'postgres:// URLs').describe(
    "Comma-separated streaming replicas of the primary. A visitor's reads (no session: pages and API reads) go to one that is up and close enough, round-robin; a logged-in viewer's reads and every write go to the primary. A replica that fails is skipped at once (the primary answers) and taken back when it answers again. See [Read replicas and a pooler](#read-replicas-and-a-pooler).",
  ),
  DATABASE_REPLICA_MAX_LAG_MS: whole(5_000, 1).describe(
    'A replica further behind the primary than this serves no reads until it catches up.',
  ),
  DATABASE_REPLICA_CHECK_MS: whole(1_000, 1).describe("How often each replica's health and lag are measured."),
  DATABASE_PREPARE: z
    .enum(['on', 'off', 'auto'], { message: 'expected on, off or auto' })
    .default('auto')
    .describe(
      '`on`: repeated query texts run as named prepared statements (parsed and planned once per connection). `off`: every statement unnamed, which PgBouncer in transaction mode needs before 1.21 (Debian 12 ships 1.18). `auto`: off when `DATABASE_DIRECT_URL` differs from `DATABASE_URL` (a pooler in front), on otherwise.',
    ),
  PG_POOL_MAX: whole(10, 1).describe('Connections the app server keeps to the primary at most.'),
  PG_FEED_POOL_MAX: whole(2, 0).describe(
    "Connections of the app server's second pool, for the recommend feed's ranking reads alone (0: they share the first). About the database's cores divided by the app servers: these reads are heavy, and spread over more backends than cores they cost PostgreSQL twice the CPU.",
  ),
  PG_PORT: whole(0, 1, 65_535)
    .transform((port) => port || undefined)
    .describe('Port of the embedded PostgreSQL (it listens on 127.0.0.1 only).')
    .meta({ shown: 'a free port' }),
  MIGRATIONS_DIR: place()
    .describe('The migrations applied at start-up.')
    .meta({ shown: '`drizzle/` of this checkout' }),
  MEDIA_MANIFEST: place()
    .describe('The sample-media manifest the seed reads (made by `npm run media`).')
    .meta({ shown: '`media/manifest.json`' }),
  PUBLIC_URL: publicUrl.describe(
    "This site's public address (`https://shanying.example.org`, a path prefix allowed). It is the address of links that leave the browser (the QR login code a phone scans), the site whose pages may write to the Douyin-compatible API with the session cookie, and, when https, makes the session cookie `__Host-` and Secure. Set it behind a reverse proxy or a public name; unset, the site is the scheme, host and port the request reached (the Host header; `X-Forwarded-Host` and `X-Forwarded-Proto` only under `TRUST_PROXY`).",
  ),
  TRUST_PROXY: flag(false)
    .describe(
      "`1` (or `true`) when every request reaches the app through a proxy that sets `X-Forwarded-Proto` and `X-Forwarded-For` itself: its `https` then makes the session cookie `__Host-` and Secure and turns on HSTS, its `X-Forwarded-Host` names the site, and the address it appends last to `X-Forwarded-For` is the client's for per-address limits (behind a load balancer every peer is the balancer). Unset, a client's `X-Forwarded-*` headers are ignored. See [Behind a TLS proxy](#behind-a-tls-proxy).",
    )
    .meta({ shown: 'off' }),
  MEDIA_BASE_URL: url(['http', 'https'])
    .transform((value) => value?.replace(/\/+$/, '') ?? '')
    .describe(
      'Prefix for media URLs, e.g. a CDN in front of the bucket: `https://cdn.example.com` gives `https://cdn.example.com/media/clips/c01.mp4`.',
    )
    .meta({ shown: 'empty (same origin)' }),
  SMTP_URL: url(['smtp', 'smtps']).describe('Mail server for e-mailed login codes (`smtp://user:pass@host:587`).'),
  MAIL_FROM: z
    .string()
    .default('闪映 <no-reply@shanying.dev>')
    .describe('The sender of login-code mail sent through `SMTP_URL`.'),
  CORS_ORIGINS: list(isOrigin, 'origins (scheme://host[:port])')
    .transform((origins) => new Set(origins.map((o) => new URL(o).origin)) as ReadonlySet<string>)
    .describe(
      'Comma-separated origins allowed to call `/api` with credentials; a page of one of them may also write to the Douyin-compatible API with the session cookie.',
    )
    .meta({ shown: 'none' }),
  PAYMENT_CHECKOUT_URL: url(['http', 'https']).describe(
    "A payment provider's hosted checkout for 充钻石; each package links to it with `package`, `diamonds`, `amount` (fen) and `currency` added to the query. Unset: the dialog says top-up is not available on this site.",
  ),
  DESKTOP_CLIENT_URL: url(['http', 'https']).describe(
    'Download of the Windows client the 客户端 popover names (version and arch in `src/content/downloads.json`). Unset: the popover offers 添加到桌面 (install the site) instead of a download.',
  ),
  BROWSER_EXTENSION_URL: url(['http', 'https']).describe(
    "The browser extension's page (快捷访问 → 浏览器插件 → 去安装). Unset: that row is not shown.",
  ),
  ORDERS_URL: url(['http', 'https']).describe(
    'An orders page (我的订单 in the avatar menu and the logged-out popover). Unset: the entry is not shown.',
  ),
  API_ANON_CACHE: flag(true).describe(
    '`off` turns off the 2-second in-process cache of the hottest anonymous API reads (a write others can see drops the answers about its video at once, and ends every other one once it is 1 s old).',
  ),
  PAGE_CACHE: flag(true).describe(
    '`off` turns off the in-process cache of rendered anonymous pages (see [Page caching](#page-caching)); every anonymous visit is then rendered, still with the same `Cache-Control` and ETag for a CDN.',
  ),
  PAGE_REFRESH_MIN_MS: whole(REFRESH_MIN_MS, 0).describe(
    "How old a kept anonymous page must be before a write to something else makes it stale (a write's own page goes stale at once); `0` makes every write stale every page at once.",
  ),
  RATE_LIMIT_IP_FACTOR: decimal(1)
    .transform((factor) => factor ?? 1)
    .describe(
      'Multiplies every per-address limit (logins, codes, QR tickets, searches, writes) for many users behind one address; per-account limits never change.',
    )
    .meta({ shown: '`1`' }),
  HTTP_HEADERS_TIMEOUT_MS: whole(10_000, 1).describe(
    "A client must send a request's headers within this time, or gets 408 and the connection closes (slow clients holding connections).",
  ),
  HTTP_REQUEST_TIMEOUT_MS: whole(120_000, 1).describe(
    'A whole request, body included, must arrive within this time (408); answers may take longer (event streams, downloads).',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: whole(5_000, 1).describe('An idle keep-alive connection is closed after this time.'),
  MAX_CONNECTIONS_PER_IP: whole(256, 0).describe(
    "Connections one client address may hold open; more are closed as they come, unanswered. Behind a reverse proxy every connection comes from the proxy: raise it above the proxy's pool, or `0` turns the cap off.",
  ),
  UPLOAD_MAX_BYTES: whole(500 * 1024 * 1024, 1)
    .describe('Largest video upload; the declared `Upload-Length` is refused (413) above it before a byte is stored.')
    .meta({ shown: '`524288000` (500 MB)' }),
  UPLOAD_IDLE_MS: whole(24 * 60 * 60 * 1000, 1)
    .describe(
      'An upload that receives no byte for this long is abandoned: the hourly sweep deletes its files and marks it expired (上传已过期).',
    )
    .meta({ shown: '`86400000` (24 h)' }),
  WORKERS: flag(true).describe(
    '`0`: this web process does not work the job queue (run `npm run worker` beside it, on the same `DATABASE_URL`).',
  ),
  WORKER: flag(true).describe('`off` does what `WORKERS=0` does.'),
  WORKER_CONCURRENCY: whole(1, 1).describe('Transcodes one worker process runs at once.'),
  WORKER_POLL_SECONDS: decimal(0.5)
    .transform((seconds) => seconds ?? 2)
    .describe('How often a worker asks the job queue for new jobs, in seconds (at least 0.5).')
    .meta({ shown: '`2`' }),
  MEDIA_STORE: mediaStore
    .describe(
      'Where published media goes: `local` is `DATA_DIR/media` (served under `/media/`); `s3://<bucket>[/<prefix>]` is an S3-compatible bucket (see [Object storage](#object-storage)).',
    )
    .meta({ shown: '`local`' }),
  S3_ENDPOINT: url(['http', 'https'])
    .describe('The S3-compatible server of `MEDIA_STORE=s3://…`, e.g. `http://127.0.0.1:9000`.')
    .meta({ shown: 'unset (AWS)' }),
  S3_REGION: z.string().default('us-east-1').describe("The bucket's region."),
  S3_FORCE_PATH_STYLE: flag(false)
    .describe(
      '`1`: address the bucket as `<endpoint>/<bucket>/<key>` (most self-hosted stores) rather than `<bucket>.<endpoint>`.',
    )
    .meta({ shown: 'off' }),
  AWS_ACCESS_KEY_ID: z
    .string()
    .optional()
    .describe(
      "The bucket's access key, read by the AWS SDK's standard chain (which also reads `~/.aws` and instance roles).",
    ),
  AWS_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .describe("The bucket's secret key, read by the AWS SDK's standard chain."),
  UPLOADS_DIR: place()
    .describe(
      'Uploads in progress and sources waiting for the worker, and data exports waiting to be downloaded (`exports/`). With several app servers or a separate worker, all of them must share it (one directory, or a network mount).',
    )
    .meta({ shown: '`DATA_DIR/uploads`' }),
  SERVER_NAME: z
    .string()
    .regex(/^[\w.-]{1,64}$/, { message: "expected 1-64 letters, digits, '.', '_' or '-'" })
    .optional()
    .describe(
      'A short name for this app server (letters, digits, `.`, `_`, `-`); set, every answer carries it in `X-Served-By`, so behind a load balancer one can tell which server answered.',
    ),
  CAPTION_ENGINE: z
    .string()
    .optional()
    .transform((value) => {
      const argv = (value ?? '').split(/\s+/).filter(Boolean);
      return argv.length > 0 ? argv : undefined;
    })
    .describe(
      "A command that writes captions (字幕) automatically: run with an audio file's path (16 kHz mono WAV) appended, it prints WebVTT on stdout. Split on spaces, no shell. Each work gets it once it is published (a job after transcoding); its output is checked like an uploaded caption file and never replaces captions the work already has. Unset: no automatic captions. See [Captions](#captions).",
    ),
  TZ: z
    .string()
    .optional()
    .transform((zone) => (knownTimeZone(zone) ? zone : DEFAULT_TIME_ZONE))
    .describe(
      "The site's time zone: every date and time the pages and the API show (发布时间, comment and message times, the studio's daily figures) is of this zone, on the server and in every browser alike (a page carries it to the browser). An IANA name; anything Intl does not know reads as the default (the variable is the system's too, and may hold a POSIX rule).",
    ),
  RTMP_PORT: whole(1935, 0, 65_535).describe(
    "Port of the RTMP ingest that hosts' broadcasting tools (OBS, ffmpeg) publish to; `0` turns it off on this server (it still plays what other app servers ingest). See [Going live](#going-live).",
  ),
  LIVE_MAX_KBPS: whole(6000, 100, 1_000_000).describe(
    'A publisher whose video and audio come to more than this (declared, or measured over 5 s with 25 % leeway) is refused, with the reason in its studio.',
  ),
  LIVE_RTMP_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || /^rtmps?:\/\/[^/]+(\/[\w-]+)?\/*$/.test(value), {
      message: 'expected rtmp://host[:port][/app] (or rtmps://)',
    })
    .transform((value) => value?.replace(/\/+$/, ''))
    .describe(
      "The RTMP server address the studio shows hosts, when they reach it otherwise (a load balancer's RTMP port, another name).",
    )
    .meta({ shown: "`rtmp://<this site's host>:RTMP_PORT/live`" }),
  LIVE_INTERNAL_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || /^https?:\/\/[^/]+\/*$/.test(value), {
      message: 'expected http(s)://host[:port], without a path',
    })
    .transform((value) => value?.replace(/\/+$/, ''))
    .describe("How the other app servers reach this one's HTTP port, to relay the streams it ingests to their viewers.")
    .meta({ shown: '`http://127.0.0.1:PORT`' }),
  LIVE_HLS: flag(true).describe(
    '`off`: no HLS (`/live/{id}/index.m3u8`) for browsers without Media Source Extensions.',
  ),
  DEMO_PASSWORD: z.string().default('shanying-demo').describe('Password of the seeded demo account.'),
  UV_THREADPOOL_SIZE: whole(4, 1, 1024).describe(
    "Threads of Node's pool (read by Node itself too): password hashes, compression and file reads run there; at most this many less two hashes run at once.",
  ),
  PATH: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(path.delimiter).filter(Boolean))
    .describe('Folders searched for `ffmpeg` and `ffprobe` (else the optional npm packages that carry them).')
    .meta({ shown: "the system's" }),
  CONTENT_DIR: place()
    .describe(
      "Where the editors' content is seeded from on a site's first start (when the database has none) and where `npm run content:export` / `content:import` write and read by default (a directory argument overrides it).",
    )
    .meta({ shown: '`src/content`' }),
  CHROMIUM_PATH: z
    .string()
    .default('/usr/bin/chromium')
    .describe('Chromium used by the browser tests and the benchmarks.'),
});

/** The parsed settings, by variable name; UPLOADS_DIR and DATABASE_DIRECT_URL with their defaults filled in. */
export type Config = Omit<z.output<typeof SETTINGS>, 'UPLOADS_DIR'> & { UPLOADS_DIR: string };

/** A setting that does not parse: the message names every such variable and what it expects, never the value. */
export class ConfigError extends Error {
  /** The variables that did not parse. */
  readonly variables: string[];
  constructor(variables: string[], message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variables = variables;
  }
}

/** The variables the configuration reads. */
export const SETTING_NAMES = Object.keys(SETTINGS.shape) as (keyof typeof SETTINGS.shape)[];

/** A setting's default, as parsed (`defaultOf('UPLOAD_MAX_BYTES')`): the one place it is written is SETTINGS. */
export function defaultOf<K extends keyof typeof SETTINGS.shape>(name: K): z.output<(typeof SETTINGS.shape)[K]> {
  return SETTINGS.shape[name].parse(undefined) as z.output<(typeof SETTINGS.shape)[K]>;
}

/** The settings' values in `env`, an empty (or blank) one as unset. */
function readEnv(env: Env): Env {
  const picked: Env = {};
  for (const name of SETTING_NAMES) {
    const value = env[name]?.trim();
    picked[name] = value ? value : undefined;
  }
  return picked;
}

/** Builds a configuration from an environment (tests pass their own); throws ConfigError naming every bad variable. */
export function loadConfig(env: Env): Config {
  const source = readEnv(env);
  const parsed = SETTINGS.safeParse(source);
  if (!parsed.success) {
    const byName = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (!byName.has(name)) byName.set(name, issue.message);
    }
    const message = [...byName].map(([name, why]) => `${name}: ${why}`).join('; ');
    throw new ConfigError([...byName.keys()], `invalid setting: ${message}`);
  }
  const values = parsed.data;
  return {
    ...values,
    UPLOADS_DIR: values.UPLOADS_DIR ?? path.join(values.DATA_DIR, 'uploads'),
    DATABASE_DIRECT_URL: values.DATABASE_DIRECT_URL ?? values.DATABASE_URL,
  };
}

/** The default of a setting as the README shows it. */
function shownDefault(schema: z.ZodType): string {
  const shown = (schema.meta() as { shown?: string } | undefined)?.shown;
  if (shown) return shown;
  const value: unknown = schema.parse(undefined);
  if (value === undefined) return 'unset';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value) || value instanceof Set) return [...value].length ? `\`${[...value].join(',')}\`` : 'none';
  return `\`${String(value)}\``;
}

/** The README's settings table: one row per variable, its default and its meaning, in the order of SETTINGS. */
export function settingsTable(): string {
  const rows = SETTING_NAMES.map((name) => {
    const schema = SETTINGS.shape[name] as z.ZodType;
    const meaning = schema.description ?? '';
    return `| \`${name}\` | ${shownDefault(schema)} | ${meaning.replaceAll('|', '\\|')} |`;
  });
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

interface Holder {
  config?: Config;
  /** The variables the config was made from (to follow the environment in tests, and to add the database URL). */
  source?: Env;
  follow?: boolean;
}

// Shared by every copy of this module in the process (server.ts's and the Astro build's).
const HOLDER = Symbol.for('shanying.config');
const holder: Holder = ((globalThis as { [HOLDER]?: Holder })[HOLDER] ??= {});

function install(env: Env): Config {
  const config = loadConfig(env);
  holder.source = readEnv(env);
  return installed(config);
}

/** Makes `config` this process's, and hands what shared code needs of it (the site's time zone) over. */
function installed(config: Config): Config {
  holder.config = config;
  useTimeZone(config.TZ);
  return config;
}

function changed(): boolean {
  const source = holder.source;
  if (!source) return true;
  for (const name of SETTING_NAMES) if ((process.env[name]?.trim() || undefined) !== source[name]) return true;
  return false;
}

/** This process's configuration, loaded from the environment at first use (server.ts loads it first, at start). */
export function config(): Config {
  if (holder.follow && changed()) return install(process.env);
  return holder.config ?? install(process.env);
}

/** Loads the configuration from the environment now (at start: a ConfigError stops it), replacing any loaded before. */
export function loadProcessConfig(): Config {
  return install(process.env);
}

/**
 * Tests only (tests/setup/env.ts): config() loads again whenever one of its variables has changed in process.env, so a
 * test may set a variable for one case and put it back after.
 */
export function followEnvironment(): void {
  holder.follow = true;
}

/**
 * The URL of the database this process started (the embedded server), for everything that connects after: it takes
 * DATABASE_URL's place in the configuration, as if it had been set.
 */
export function useDatabaseUrl(url: string): Config {
  const env = { ...(holder.source ?? readEnv(process.env)), DATABASE_URL: url };
  const config = loadConfig(env);
  holder.source = env;
  return installed(config);
}

/**
 * What the Astro build and React read from the environment themselves: the standalone server must not start on import
 * (server.ts serves it), and React picks its production build from NODE_ENV when first imported (unset, every island
 * rendered with the development build: / 22 → 17 ms, /video/{id} 33 → 25 ms median server time).
 */
export function prepareAstroEnvironment(): void {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.NODE_ENV ??= 'production';
}
