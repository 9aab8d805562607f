/**
 * Playback doors on the site's own port: `/live/{id}.flv` (HTTP-FLV, what mpegts.js plays, douyin.com's web live
 * format) and `/live/{id}/index.m3u8` with its segments (HLS, for browsers without Media Source Extensions). A room
 * ingested by another app server is relayed from it (live_rooms.origin), so any server plays any room.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { liveRooms } from '../db/schema.ts';
import { liveConfig } from './config.ts';
import { hlsDir, packagedDir } from './hls.ts';
import { localStream, relayFrom, RELAY_HEADER } from './local.ts';
import type { LiveStream, Subscriber } from './stream.ts';

/** A viewer this many bytes behind (a stalled connection) is dropped rather than buffered without end. */
const VIEWER_MAX_BEHIND = 4 * 1024 * 1024;

const FLV_PATH = /^\/live\/([1-9]\d{0,9})\.flv$/;
const HLS_PATH = /^\/live\/([1-9]\d{0,9})\/(index\.m3u8|s\d{1,9}\.ts)$/;

/** Whether a request path is one of these doors. */
export function isLivePath(pathname: string): boolean {
  return FLV_PATH.test(pathname) || HLS_PATH.test(pathname);
}

type RoomState = 'live' | 'paused' | 'ended' | 'none';

function answer(res: ServerResponse, status: number, state: RoomState, retryAfterS?: number): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(retryAfterS ? { 'Retry-After': String(retryAfterS) } : {}),
  });
  res.end(JSON.stringify({ state }));
}

/** The room's stream here: held, already relayed, or relayed now from the server that ingests it. */
async function streamFor(roomId: number, relayed: boolean): Promise<LiveStream | RoomState> {
  const here = localStream(roomId);
  if (here) return here;
  const [room] = await db()
    .select({ status: liveRooms.status, pausedAt: liveRooms.pausedAt, origin: liveRooms.origin })
    .from(liveRooms)
    .where(eq(liveRooms.id, roomId));
  if (!room) return 'none';
  if (room.status !== 'live') return 'ended';
  if (room.pausedAt || !room.origin) return 'paused';
  // A relay's request answers from what this server holds, never relays it again (no loops between servers).
  if (relayed || room.origin === liveConfig().internalUrl) return 'paused';
  return relayFrom(roomId, room.origin);
}

/** Answers a playback request; `pathname` is one isLivePath accepted. */
export async function serveLive(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' });
    return void res.end();
  }
  const flv = FLV_PATH.exec(pathname);
  const hls = flv ? null : HLS_PATH.exec(pathname);
  const roomId = Number((flv ?? hls)![1]);
  if (hls && hls[2] !== 'index.m3u8') return serveSegment(res, req, roomId, hls[2]!);
  const found = await streamFor(roomId, req.headers[RELAY_HEADER] === '1');
  if (typeof found === 'string') {
    // 404 unknown, 410 ended for good, 503 while the host is away (the player tries again).
    return answer(
      res,
      found === 'none' ? 404 : found === 'ended' ? 410 : 503,
      found,
      found === 'paused' ? 2 : undefined,
    );
  }
  if (hls) return servePlaylist(res, req, found);
  res.writeHead(200, {
    'Content-Type': 'video/x-flv',
    'Cache-Control': 'no-store',
    // A proxy in front must pass the stream on as it comes.
    'X-Accel-Buffering': 'no',
  });
  if (req.method === 'HEAD') return void res.end();
  res.flushHeaders();
  const viewer: Subscriber = {
    write: (chunk) => {
      if (res.destroyed) return false;
      res.write(chunk);
      return res.writableLength < VIEWER_MAX_BEHIND;
    },
    end: () => res.end(),
  };
  found.subscribe(viewer);
  res.once('close', () => found.unsubscribe(viewer));
}

async function servePlaylist(res: ServerResponse, req: IncomingMessage, stream: LiveStream): Promise<void> {
  if (!liveConfig().hls) return answer(res, 404, 'none');
  const dir = await hlsDir(stream);
  if (!dir) return answer(res, 503, 'paused', 2);
  await sendFile(res, req, path.join(dir, 'index.m3u8'), 'application/vnd.apple.mpegurl', 'no-cache');
}

async function serveSegment(res: ServerResponse, req: IncomingMessage, roomId: number, name: string): Promise<void> {
  const dir = packagedDir(roomId);
  if (!dir) return answer(res, 404, 'none');
  await sendFile(res, req, path.join(dir, name), 'video/mp2t', 'public, max-age=60');
}

async function sendFile(
  res: ServerResponse,
  req: IncomingMessage,
  file: string,
  type: string,
  cache: string,
): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info) return answer(res, 404, 'none');
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': info.size, 'Cache-Control': cache });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
