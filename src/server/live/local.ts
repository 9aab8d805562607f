/**
 * The streams this process holds: broadcasts published to its RTMP port, and relays of broadcasts another app server
 * ingests (one upstream connection per room, shared by every viewer here). Viewers, the HLS packager and thumbnails
 * take a room's stream from here.
 */
import http from 'node:http';
import Flv from 'node-media-server/src/protocol/flv.js';
import { logLine } from '../log.ts';
import { LiveStream } from './stream.ts';

/** A relay nobody here watches is closed after this long. */
const RELAY_IDLE_MS = 10_000;
/** Header a relay's request carries: the origin answers it from what it holds, never relays it further. */
export const RELAY_HEADER = 'x-live-relay';

const published = new Map<number, LiveStream>();
const relays = new Map<number, LiveStream>();

/** The stream of a room this process can serve now, ingested here or relayed; null when it has none. */
export function localStream(roomId: number): LiveStream | null {
  const own = published.get(roomId);
  if (own && !own.isEnded) return own;
  const relayed = relays.get(roomId);
  return relayed && !relayed.isEnded ? relayed : null;
}

/** Whether this process ingests the room's stream itself. */
export function ingestsHere(roomId: number): boolean {
  const own = published.get(roomId);
  return !!own && !own.isEnded;
}

/** Registers the stream of a publisher that went on air here. */
export function holdPublished(stream: LiveStream): void {
  published.get(stream.roomId)?.end();
  published.set(stream.roomId, stream);
}

/** Forgets a published stream that ended. */
export function releasePublished(stream: LiveStream): void {
  if (published.get(stream.roomId) === stream) published.delete(stream.roomId);
}

/** Opens (or joins) the relay of a room that the server at `origin` ingests. */
export function relayFrom(roomId: number, origin: string): LiveStream {
  const existing = relays.get(roomId);
  if (existing && !existing.isEnded) return existing;
  const stream = new LiveStream(roomId);
  relays.set(roomId, stream);
  const flv = new Flv();
  flv.onPacketCallback = (packet) => stream.push(packet);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    clearTimeout(idle);
    stream.end();
    if (relays.get(roomId) === stream) relays.delete(roomId);
    request.destroy();
  };
  stream.onIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (stream.subscriberCount === 0) close();
    }, RELAY_IDLE_MS);
    idle.unref();
  };
  const request = http.get(`${origin}/live/${roomId}.flv`, { headers: { [RELAY_HEADER]: '1' } }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      return close();
    }
    res.on('data', (chunk: Buffer) => {
      if (flv.parserData(chunk) !== null) {
        logLine('warn', 'live relay: the origin sent bytes that are not FLV', { roomId });
        close();
      }
    });
    res.on('end', close);
    res.on('close', close);
  });
  request.on('error', (error) => {
    logLine('warn', 'live relay failed', { roomId, error });
    close();
  });
  return stream;
}

/** Ends every stream held here (the process is stopping). */
export function endAll(): void {
  for (const s of [...published.values(), ...relays.values()]) s.end();
  published.clear();
  relays.clear();
}
