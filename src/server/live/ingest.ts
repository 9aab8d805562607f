/**
 * RTMP ingest: node-media-server's RTMP session speaks the protocol (handshake, chunk streams, AMF commands, the
 * publish state, and its refusal of a second publisher on one stream path); this module decides who may publish and
 * what. A publish to rtmp://host:RTMP_PORT/live with a member's stream key is held until the key checks out and the
 * stream shows H.264 video (AAC audio, if any) within LIVE_MAX_KBPS; only then does the broadcast begin, so a refused
 * publish leaves every room as it was. Each refusal is logged with its reason and shown in the member's studio.
 */
import net from 'node:net';
import type AVPacket from 'node-media-server/src/core/avpacket.js';
import Context from 'node-media-server/src/core/context.js';
import nmsLogger from 'node-media-server/src/core/logger.js';
import RtmpSession from 'node-media-server/src/session/rtmp_session.js';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { announceWrite } from '../cache/shared-writes.ts';
import { logLine } from '../log.ts';
import type { MessageVars } from '../errors.ts';
import { ServiceError } from '../errors.ts';
import {
  beginBroadcast,
  endBroadcast,
  LIVE_RESUME_MS,
  pauseBroadcast,
  reportIngest,
  sweepBroadcasts,
} from '../services/live-broadcasts.ts';
import { keyUser, recordRefusal, verifyKey } from '../services/live-hosts.ts';
import { liveConfig, RTMP_APP } from './config.ts';
import { holdPublished, releasePublished } from './local.ts';
import { Recording } from './recorder.ts';
import { AAC, FLV_AUDIO, FLV_VIDEO, H264, LiveStream, readMeta, type StreamMeta } from './stream.ts';
import { refreshThumb, THUMB_EVERY_MS } from './thumbs.ts';

/** A publish must show its video within this long. */
const FIRST_VIDEO_MS = 5_000;
/** Packets held while a publish is being checked; more means it is not a live stream. */
const HELD_MAX_BYTES = 16 * 1024 * 1024;
/** How often the figures go to the database (also the heartbeat other servers read), and the bitrate is checked. */
const REPORT_EVERY_MS = 2_000;
/** The bitrate cap allows this much over LIVE_MAX_KBPS for a moment (a key frame, a burst after a stall). */
const KBPS_TOLERANCE = 1.25;
/** How often every server looks for broadcasts to end (publisher gone for good, or its server dead). */
const SWEEP_EVERY_MS = 10_000;

type Refusal = { key: MessageKey; vars?: MessageVars };

/** A copy of a packet that outlives the parser's buffer it came in. */
function keep(p: AVPacket): AVPacket {
  return Object.assign(Object.create(Object.getPrototypeOf(p) as object) as AVPacket, p, {
    data: Buffer.from(p.data.subarray(0, p.size)),
  });
}

const codecName = (type: number, id: number | string | undefined): string =>
  id === undefined
    ? ''
    : type === FLV_VIDEO
      ? id === H264 || id === 'avc1'
        ? 'H.264'
        : (({ 2: 'H.263', 4: 'VP6', 12: 'HEVC' } as Record<string, string>)[String(id)] ?? String(id))
      : id === AAC || id === 'mp4a'
        ? 'AAC'
        : (({ 2: 'MP3', 11: 'Speex', 0: 'PCM', 3: 'PCM' } as Record<string, string>)[String(id)] ?? String(id));

/** What refuses a stream by its metadata or a packet, or null while it may go on. */
export function judge(
  meta: StreamMeta | null,
  packet: { codec_type: number; codec_id: number } | null,
  maxKbps: number,
): Refusal | null {
  if (meta) {
    if (meta.videoCodec !== undefined && codecName(FLV_VIDEO, meta.videoCodec) !== 'H.264')
      return { key: 'live.refused.codec', vars: { codec: codecName(FLV_VIDEO, meta.videoCodec) } };
    if (meta.audioCodec !== undefined && codecName(FLV_AUDIO, meta.audioCodec) !== 'AAC')
      return { key: 'live.refused.codec', vars: { codec: codecName(FLV_AUDIO, meta.audioCodec) } };
    if (meta.videoCodec === undefined && meta.width === undefined && meta.audioCodec !== undefined)
      return { key: 'live.refused.noVideo' };
    if (meta.kbps !== undefined && meta.kbps > maxKbps)
      return { key: 'live.refused.bitrate', vars: { kbps: meta.kbps, max: maxKbps } };
  }
  if (packet?.codec_type === FLV_VIDEO && packet.codec_id !== H264)
    return { key: 'live.refused.codec', vars: { codec: codecName(FLV_VIDEO, packet.codec_id) } };
  if (packet?.codec_type === FLV_AUDIO && packet.codec_id !== AAC)
    return { key: 'live.refused.codec', vars: { codec: codecName(FLV_AUDIO, packet.codec_id) } };
  return null;
}

/** A broadcast ingested here: its current stream, recording and timers, across the publisher's comings and goings. */
interface Held {
  roomId: number;
  userId: number;
  stream: LiveStream | null;
  recording: Recording | null;
  endTimer?: ReturnType<typeof setTimeout>;
}
const held = new Map<number, Held>();

function refuse(session: RtmpSession, userId: number | null, r: Refusal): void {
  logLine('warn', 'live publish refused', {
    reason: r.key,
    ...(r.vars ?? {}),
    user: userId ?? undefined,
    address: session.socket.remoteAddress,
  });
  if (userId !== null) void recordRefusal(userId, r.key, r.vars);
  session.socket.destroy();
}

/** Takes a publish from its first packet: check, then begin (or continue) the broadcast and feed it. */
function admit(session: RtmpSession, origin: string): void {
  const { maxKbps } = liveConfig();
  const key = session.streamName;
  const claimed = keyUser(key);
  // node-media-server refuses a second publisher on a stream path itself, right after this event.
  if (session.broadcast.publisher !== null && session.broadcast.getPublishStatus() === 'publishing') {
    void verifyKey(key).then((userId) => {
      logLine('warn', 'live publish refused', { reason: 'live.refused.busy', user: userId ?? undefined });
      if (userId !== null) void recordRefusal(userId, 'live.refused.busy');
    });
    return;
  }
  // The path's own grace for a returning publisher is not used: the broadcast's is kept in the database, so that a
  // publisher may come back through another app server too.
  session.broadcast.publishGraceMs = 0;
  if (session.streamApp !== RTMP_APP) return refuse(session, claimed, { key: 'live.refused.badKey' });

  const waiting: AVPacket[] = [];
  let waitingBytes = 0;
  let sawVideo = false;
  let decided = false;
  let verified: number | null | undefined;
  let starting = false;
  let room: Held | null = null;
  let stream: LiveStream | null = null;
  let closed = false;
  const timer = setTimeout(() => {
    if (!decided) fail({ key: 'live.refused.noVideo' });
  }, FIRST_VIDEO_MS);

  const fail = (r: Refusal) => {
    decided = true;
    clearTimeout(timer);
    refuse(session, claimed, r);
  };

  const check = (p: AVPacket): boolean => {
    const verdict = judge(p.flags === 5 ? readMeta(p) : null, p.flags === 5 ? null : p, maxKbps);
    if (verdict) {
      if (stream && room) void stopForGood(room, verdict, session);
      else fail(verdict);
      return false;
    }
    return true;
  };

  session.rtmp.onPacketCallback = (packet) => {
    if (closed) return;
    if (stream) {
      if (check(packet)) stream.push(packet);
      return;
    }
    if (decided) return;
    if (!check(packet)) return;
    if (packet.codec_type === FLV_VIDEO && packet.flags === 2) sawVideo = true;
    waitingBytes += packet.size;
    if (waitingBytes > HELD_MAX_BYTES) return fail({ key: 'live.refused.noVideo' });
    waiting.push(keep(packet));
    if (sawVideo && verified !== undefined) void start();
  };

  const start = async () => {
    if (starting || decided) return;
    starting = true;
    const userId = verified!;
    try {
      const began = await beginBroadcast(userId, origin);
      if (closed) {
        await pauseBroadcast(began.roomId);
        return;
      }
      decided = true;
      clearTimeout(timer);
      let h = held.get(began.roomId);
      if (!h) {
        h = {
          roomId: began.roomId,
          userId,
          stream: null,
          recording: began.recording ? new Recording(began.roomId) : null,
        };
        held.set(began.roomId, h);
      }
      clearTimeout(h.endTimer);
      room = h;
      const s = new LiveStream(began.roomId);
      h.stream = s;
      holdPublished(s);
      if (h.recording) await h.recording.record(s);
      for (const p of waiting.splice(0)) s.push(p);
      stream = s;
      logLine('info', began.resumed ? 'live broadcast continues' : 'live broadcast began', {
        roomId: began.roomId,
        user: userId,
      });
      // /live and the room's page change for every visitor.
      announceWrite([]);
      watch(h, s, session);
    } catch (error) {
      if (error instanceof ServiceError && error.key === 'live.refused.busy') return fail({ key: 'live.refused.busy' });
      logLine('error', 'live broadcast could not begin', { error });
      fail({ key: 'live.refused.unavailable' });
    }
  };

  void verifyKey(key).then(
    (userId) => {
      if (userId === null) return fail({ key: 'live.refused.badKey' });
      verified = userId;
      if (sawVideo) void start();
    },
    (error: unknown) => {
      logLine('error', 'live key check failed', { error });
      fail({ key: 'live.refused.unavailable' });
    },
  );

  // A tool that stops streaming says so (deleteStream: OBS's 停止直播, ffmpeg's end); a dropped connection does not,
  // and may come back.
  let unpublished = false;
  session.rtmp.onDeleteStream = () => {
    unpublished = true;
  };
  session.socket.once('close', () => {
    closed = true;
    clearTimeout(timer);
    if (room && stream) publisherLeft(room, stream, unpublished);
  });
}

/** Figures to the database every few seconds, the bitrate cap, and the picture for /live. */
function watch(h: Held, s: LiveStream, session: RtmpSession): void {
  const { maxKbps } = liveConfig();
  let lastKeyAt = 0;
  const report = setInterval(() => {
    if (s.isEnded) return clearInterval(report);
    const kbps = s.kbps();
    if (kbps > maxKbps * KBPS_TOLERANCE) {
      clearInterval(report);
      void stopForGood(h, { key: 'live.refused.bitrate', vars: { kbps, max: maxKbps } }, session);
      return;
    }
    void reportIngest(h.roomId, {
      width: s.info.width ?? 0,
      height: s.info.height ?? 0,
      fps: Math.round(s.info.fps ?? 0),
      kbps,
      videoCodec: codecName(FLV_VIDEO, s.info.videoCodec ?? H264),
      audioCodec: codecName(FLV_AUDIO, s.info.audioCodec),
    }).catch(() => {});
  }, REPORT_EVERY_MS);
  report.unref();
  const thumbs = async () => {
    if (s.isEnded) return;
    const key = await refreshThumb(s, lastKeyAt);
    if (key) lastKeyAt = s.lastKeyAt;
    setTimeout(() => void thumbs(), THUMB_EVERY_MS).unref();
  };
  // The first picture as soon as there is a frame, so /live has one within seconds of going live.
  setTimeout(() => void thumbs(), 500).unref();
}

/**
 * The publisher left. Stopped on purpose: the broadcast ends now. Dropped: 主播暂时离开, and the end of the broadcast
 * unless it comes back within LIVE_RESUME_MS.
 */
function publisherLeft(h: Held, s: LiveStream, stopped: boolean): void {
  if (h.stream !== s) return;
  s.end();
  releasePublished(s);
  h.stream = null;
  h.recording?.stop();
  if (stopped) return void finish(h, true);
  void pauseBroadcast(h.roomId)
    .then(() => announceWrite([]))
    .catch((error: unknown) => logLine('warn', 'live pause failed', { error }));
  h.endTimer = setTimeout(() => void finish(h), LIVE_RESUME_MS);
  h.endTimer.unref();
}

/** Ends a broadcast that was refused on air (its bitrate went over the cap). */
async function stopForGood(h: Held, r: Refusal, session: RtmpSession): Promise<void> {
  logLine('warn', 'live publish refused', { reason: r.key, ...(r.vars ?? {}), user: h.userId, roomId: h.roomId });
  void recordRefusal(h.userId, r.key, r.vars);
  const s = h.stream;
  h.stream = null;
  if (s) {
    s.end();
    releasePublished(s);
  }
  session.socket.destroy();
  clearTimeout(h.endTimer);
  await finish(h, true);
}

/** The broadcast is over: end it (unless its publisher came back, here or elsewhere) and publish its recording. */
async function finish(h: Held, now = false): Promise<void> {
  if (h.stream) return;
  held.delete(h.roomId);
  const ended = await endBroadcast(h.roomId, now ? undefined : LIVE_RESUME_MS).catch((error: unknown) => {
    logLine('warn', 'live end failed', { error });
    return null;
  });
  if (ended) {
    logLine('info', 'live broadcast ended', { roomId: h.roomId });
    announceWrite([]);
  }
  if (!h.recording) return;
  if (ended?.recording) await h.recording.publish(ended);
  else await h.recording.discard();
}

let server: net.Server | undefined;
let sweeper: ReturnType<typeof setInterval> | undefined;
const sockets = new Set<net.Socket>();

// node-media-server logs to stdout, where the request log goes; its errors come here instead, and the stream path
// (which holds the stream key) never reaches a log.
nmsLogger.log = (message: string, level = 'info') => {
  if (level !== 'error' && level !== 'warn') return;
  logLine('warn', `rtmp: ${String(message).replace(/(\/[\w-]+\/)[\w-]+/g, '$1…')}`);
};

/** Starts the RTMP server on RTMP_PORT (none when 0) and the sweep that ends abandoned broadcasts. */
export async function startIngest(): Promise<number | null> {
  const { rtmpPort, rtmpHost, internalUrl } = liveConfig();
  sweeper = setInterval(
    () =>
      void sweepBroadcasts()
        .then((ended) => ended.length > 0 && announceWrite([]))
        .catch(() => {}),
    SWEEP_EVERY_MS,
  );
  sweeper.unref();
  if (rtmpPort === 0) return null;
  Context.config = { bind: rtmpHost, rtmp: { port: rtmpPort } };
  Context.eventEmitter.on('prePublish', (session: unknown) => {
    if (session instanceof RtmpSession) admit(session, internalUrl);
  });
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const session = new RtmpSession(socket);
    session.run();
    Context.sessions.set(session.id, session);
  });
  await new Promise<void>((resolve, reject) => {
    server!.once('error', reject);
    server!.listen(rtmpPort, rtmpHost, () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : rtmpPort;
}

/** Stops taking publishes and drops the publishers (their broadcasts pause; another server may take them back). */
export async function stopIngest(): Promise<void> {
  if (sweeper) clearInterval(sweeper);
  const closed = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
  for (const s of sockets) s.destroy();
  await closed;
  for (const h of held.values()) {
    clearTimeout(h.endTimer);
    if (h.stream) await pauseBroadcast(h.roomId).catch(() => {});
    await h.recording?.discard();
  }
  held.clear();
}
