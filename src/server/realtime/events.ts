/**
 * Real-time fan-out: services publish with pg_notify on one PostgreSQL channel; each process keeps
 * one dedicated client that LISTENs to it and hands every event to the streams subscribed to its topic. Several app
 * servers on one database thus share every event with no broker.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { db } from '../db/client.ts';
import { directUrl } from '../db/settings.ts';
import { logLine } from '../log.ts';
import type { DbOrTx } from '../db/types.ts';

/** The one PostgreSQL notification channel of the portal. */
export const PG_CHANNEL = 'shanying_events';
/** pg_notify refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;
const HEARTBEAT_MS = 15_000;
/** What EventSource waits before reconnecting. */
const RETRY_MS = 2_000;
/** Chunks a stream may have queued for a client that does not read before it is dropped. */
const MAX_QUEUED = 500;

/** An event on a topic ('room:12', 'user:3'); `id` becomes the SSE id (a client resumes from it). */
export interface HubEvent {
  topic: string;
  type: string;
  data: unknown;
  id?: string;
}

export type Listener = (event: HubEvent) => void;

/** Topic of a live room's chat and viewer count. */
export const roomTopic = (roomId: number) => `room:${roomId}`;
/** Topic of one user's private events (notification counts, messages). */
export const userTopic = (userId: number) => `user:${userId}`;

/** Publishes `event` on `topic`. Inside a transaction (`q` = tx) it is delivered only if and when that commits. */
export async function publish(topic: string, event: Omit<HubEvent, 'topic'>, q: DbOrTx = db()): Promise<void> {
  const payload = JSON.stringify({
    topic,
    type: event.type,
    data: event.data,
    ...(event.id !== undefined ? { id: event.id } : {}),
  });
  if (Buffer.byteLength(payload) > MAX_PAYLOAD)
    throw new RangeError(`event payload over ${MAX_PAYLOAD} bytes on ${topic}`);
  await q.execute(sql`select pg_notify(${PG_CHANNEL}, ${payload})`);
}

function parse(payload: string | undefined): HubEvent | null {
  try {
    const e = JSON.parse(payload ?? '') as Partial<HubEvent>;
    return typeof e.topic === 'string' && typeof e.type === 'string'
      ? { topic: e.topic, type: e.type, data: e.data, id: e.id }
      : null;
  } catch {
    return null;
  }
}

function warn(msg: string, error?: unknown): void {
  // Through logLine's `error` field, so the error is described as errorFields allows (never a query's values).
  logLine('warn', msg, error === undefined ? {} : { error });
}

/** One process's subscriptions, fed by one dedicated LISTEN connection (opened at the first subscribe, re-opened if lost). */
export class EventHub {
  readonly #url: () => string;
  readonly #topics = new Map<string, Set<Listener>>();
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retries = 0;
  #closed = false;

  constructor(connectionString: string | (() => string)) {
    this.#url = typeof connectionString === 'string' ? () => connectionString : connectionString;
  }

  /** Calls `listener` for every event on `topics` until the returned function is called. */
  subscribe(topics: readonly string[], listener: Listener): () => void {
    for (const topic of topics) {
      const set = this.#topics.get(topic) ?? new Set();
      set.add(listener);
      this.#topics.set(topic, set);
    }
    this.ready().catch(() => {});
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const topic of topics) {
        const set = this.#topics.get(topic);
        set?.delete(listener);
        if (set?.size === 0) this.#topics.delete(topic);
      }
    };
  }

  /** Listeners currently subscribed to `topic` (all topics when absent). */
  listeners(topic?: string): number {
    if (topic !== undefined) return this.#topics.get(topic)?.size ?? 0;
    let n = 0;
    for (const set of this.#topics.values()) n += set.size;
    return n;
  }

  /** Resolves once the LISTEN connection is up. */
  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('event hub closed'));
    if (this.#client) return Promise.resolve();
    return (this.#connecting ??= this.#connect().finally(() => (this.#connecting = null)));
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url(), keepAlive: true });
    // Errors and the end of the connection (a database restart, 57P01) must not crash the process: reconnect instead.
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => {
      if (message.channel === PG_CHANNEL) this.#dispatch(parse(message.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      client.end().catch(() => {});
      this.#scheduleRetry();
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retries = 0;
  }

  #lost(client: pg.Client, error?: unknown): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => {});
    // With nobody subscribed (a server stopping, say) there is nothing to restore until the next subscribe.
    if (this.#closed || this.#topics.size === 0) return;
    warn('event hub: LISTEN connection lost, reconnecting', error);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retryTimer || this.#topics.size === 0) return;
    const wait = Math.min(250 * 2 ** this.#retries++, 5_000);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.ready().catch((error: unknown) => warn('event hub: reconnect failed', error));
    }, wait);
    this.#retryTimer.unref?.();
  }

  #dispatch(event: HubEvent | null): void {
    if (!event) return;
    for (const listener of [...(this.#topics.get(event.topic) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        warn('event hub: listener failed', error);
      }
    }
  }

  /** Stops listening and forgets every subscription. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#topics.clear();
    await this.#connecting?.catch(() => {});
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }
}

let shared: EventHub | undefined;

/**
 * The process-wide hub, on DATABASE_DIRECT_URL, else DATABASE_URL (server.ts sets it to the embedded server): LISTEN
 * needs a session of its own, which a transaction pooler such as PgBouncer does not keep between statements.
 */
export function hub(): EventHub {
  return (shared ??= new EventHub(() => {
    const url = directUrl();
    if (!url) throw new Error('DATABASE_URL is not set');
    return url;
  }));
}

/** Replaces the process-wide hub (tests point it at their cloned database); answers the previous one. */
export function useHub(next: EventHub | undefined): EventHub | undefined {
  const previous = shared;
  shared = next;
  return previous;
}

/** One message of an event stream. */
export interface SseMessage {
  event: string;
  data: unknown;
  id?: string;
}

export interface StreamOptions {
  /** Messages sent first (a backlog, a snapshot); events arriving meanwhile follow them, without repeating an id. */
  initial?: () => Promise<SseMessage[]>;
  /** Turns a hub event into what this client sees (null to skip it); by default its type and data. */
  map?: (event: HubEvent) => SseMessage | null | Promise<SseMessage | null>;
  /** Called once when the stream ends (client gone, server stopping). */
  onClose?: () => void;
  hub?: EventHub;
}

/** One SSE frame; JSON never holds a raw newline, so `data` is one line. */
export function frame(m: SseMessage): string {
  return `${m.id !== undefined ? `id: ${m.id}\n` : ''}event: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // Proxies such as nginx would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

/**
 * A `text/event-stream` response carrying the hub's events on `topics` to one client, with a comment line every
 * 15 s to keep proxies from closing it. It cleans up (unsubscribes, stops the heartbeat, calls onClose) when the
 * client goes away, the request is aborted or the client stops reading. A private topic is the viewer's own only.
 */
export function streamEvents(
  request: Request,
  viewer: { id: number } | null,
  topics: readonly string[],
  options: StreamOptions = {},
): Response {
  for (const topic of topics) {
    if (topic.startsWith('user:') && topic !== (viewer ? userTopic(viewer.id) : null))
      throw new Error(`topic ${topic} is not the viewer's`);
  }
  // A HEAD must not subscribe (nobody would ever cancel the stream).
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers: SSE_HEADERS });
  const h = options.hub ?? hub();
  const encoder = new TextEncoder();
  let stop = () => {};

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let stopped = false;
      let unsubscribe = () => {};
      // stop() can run before the heartbeat starts, so this cannot be a const declared below.
      // eslint-disable-next-line prefer-const
      let beat: ReturnType<typeof setInterval> | undefined;
      const onAbort = () => {
        stop();
        try {
          controller.close();
        } catch {
          // Already closed or cancelled.
        }
      };
      stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(beat);
        unsubscribe();
        request.signal.removeEventListener('abort', onAbort);
        options.onClose?.();
      };
      const send = (text: string) => {
        if (stopped) return;
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED) return onAbort();
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };

      // Subscribe before reading the snapshot, hold what arrives meanwhile, then send it without repeats.
      const sent = new Set<string>();
      let held: HubEvent[] | null = [];
      let chain = Promise.resolve();
      const deliver = (event: HubEvent) => {
        // In order, one at a time: `map` may read the database.
        chain = chain.then(async () => {
          try {
            const m = options.map ? await options.map(event) : { event: event.type, data: event.data, id: event.id };
            if (m && !(m.id !== undefined && sent.has(m.id))) send(frame(m));
          } catch (error) {
            warn('event stream: event dropped', error);
          }
        });
      };
      unsubscribe = h.subscribe(topics, (event) => (held ? held.push(event) : deliver(event)));
      beat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      beat.unref?.();
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort);

      send(`retry: ${RETRY_MS}\n: ok\n\n`);
      try {
        await h.ready();
      } catch (error) {
        // The hub keeps retrying; this client still gets its snapshot now and events once it is back.
        warn('event stream: hub not ready', error);
      }
      for (const m of (await options.initial?.().catch(() => [])) ?? []) {
        if (m.id !== undefined) sent.add(m.id);
        send(frame(m));
      }
      const waiting = held;
      held = null;
      for (const event of waiting) deliver(event);
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
