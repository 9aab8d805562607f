/**
 * One broadcast's packets in this process, from its publisher (an RTMP session here, or a relay from the app server
 * holding it) out to its subscribers as FLV: viewers' HTTP-FLV answers, the HLS packager, the recorder, thumbnails.
 * A subscriber that joins gets the FLV header, the metadata, both codec headers and the current group of pictures, so
 * its first frame is a key frame, as in every live FLV server.
 */
import Flv from 'node-media-server/src/protocol/flv.js';
import type AVPacket from 'node-media-server/src/core/avpacket.js';
import { decodeAmf0Data } from 'node-media-server/src/protocol/amf.js';

/** Where FLV bytes go. `write` answers false when the subscriber is too far behind to keep. */
export interface Subscriber {
  write(chunk: Buffer): boolean;
  end(): void;
}

/** A group of pictures kept for joiners is cut past this many tags (a publisher that never sends a key frame). */
const GOP_MAX_TAGS = 4096;
/** Bytes counted per second over this many seconds for the incoming bitrate. */
const RATE_WINDOW_S = 5;

export const FLV_AUDIO = 8;
export const FLV_VIDEO = 9;
export const H264 = 7;
export const AAC = 10;

/** What the publisher's metadata said (onMetaData), as far as it said it. */
export interface StreamMeta {
  width?: number;
  height?: number;
  fps?: number;
  videoCodec?: number | string;
  audioCodec?: number | string;
  /** kbps the encoder was set to, video plus audio. */
  kbps?: number;
}

/** Reads onMetaData out of a script packet; null for any other script data. */
export function readMeta(packet: AVPacket): StreamMeta | null {
  let decoded;
  try {
    decoded = decodeAmf0Data(packet.data.subarray(0, packet.size));
  } catch {
    return null;
  }
  if ((decoded.cmd !== '@setDataFrame' && decoded.cmd !== 'onMetaData') || !decoded.dataObj) return null;
  const o = decoded.dataObj;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const codec = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? v : undefined);
  const v = num(o.videodatarate);
  const a = num(o.audiodatarate);
  return {
    width: num(o.width),
    height: num(o.height),
    fps: num(o.framerate),
    videoCodec: codec(o.videocodecid),
    audioCodec: codec(o.audiocodecid),
    kbps: v === undefined && a === undefined ? undefined : Math.round((v ?? 0) + (a ?? 0)),
  };
}

export class LiveStream {
  readonly roomId: number;
  private readonly header = Flv.createHeader(true, true);
  private meta: Buffer | null = null;
  private audioHeader: Buffer | null = null;
  private videoHeader: Buffer | null = null;
  private gop: Buffer[] = [];
  private readonly subscribers = new Set<Subscriber>();
  /** Last timestamp per track, and the shift applied to a new source so its timeline continues this one. */
  private lastDts = new Map<number, number>();
  private shift = new Map<number, number>();
  private readonly secondBytes: number[] = [];
  private secondStart = 0;
  private ended = false;
  info: StreamMeta = {};
  /** When the last packet came (ms), and when the last key frame did. */
  lastPacketAt = 0;
  lastKeyAt = 0;
  /** Called when the last subscriber leaves (relays close then). */
  onIdle: (() => void) | undefined;

  constructor(roomId: number) {
    this.roomId = roomId;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** A new source (a publisher that came back, a relay that reconnected): its timestamps continue this timeline. */
  newSource(): void {
    for (const [track, dts] of this.lastDts) this.shift.set(track, dts + 1);
  }

  /** Takes one packet from the source and sends its FLV tag to every subscriber. */
  push(packet: AVPacket): void {
    if (this.ended) return;
    const shift = this.shift.get(packet.codec_type) ?? 0;
    if (shift > 0) {
      packet.dts += shift;
      packet.pts += shift;
    }
    if (packet.codec_type === FLV_AUDIO || packet.codec_type === FLV_VIDEO)
      this.lastDts.set(packet.codec_type, packet.dts);
    this.count(packet.size + 15);
    this.lastPacketAt = Date.now();
    if (packet.flags === 5) {
      const meta = readMeta(packet);
      if (!meta) return;
      this.info = { ...this.info, ...meta };
    }
    const tag = Flv.createMessage(packet);
    switch (packet.flags) {
      case 0:
        this.audioHeader = tag;
        break;
      case 2:
        this.videoHeader = tag;
        break;
      case 3:
        this.gop = [tag];
        this.lastKeyAt = this.lastPacketAt;
        break;
      case 5:
        this.meta = tag;
        break;
      default:
        if (this.gop.length > 0) this.gop.push(tag);
        if (this.gop.length > GOP_MAX_TAGS) this.gop = [];
    }
    for (const s of this.subscribers) if (!s.write(tag)) this.drop(s);
  }

  /** What a joiner needs before the live tags: header, metadata, codec headers, the group of pictures so far. */
  private start(): Buffer[] {
    return [this.header, this.meta, this.audioHeader, this.videoHeader, ...this.gop].filter((b): b is Buffer => !!b);
  }

  /** The latest key frame alone, ready to decode (for a thumbnail); null before the first. */
  keyFrame(): Buffer | null {
    const key = this.gop[0];
    if (!key || !this.videoHeader) return null;
    return Buffer.concat([this.header, this.videoHeader, key]);
  }

  /** Whether the video codec header has come: until then there is nothing to show. */
  get hasVideo(): boolean {
    return this.videoHeader !== null;
  }

  subscribe(s: Subscriber): void {
    if (this.ended) return s.end();
    for (const chunk of this.start()) if (!s.write(chunk)) return this.drop(s);
    this.subscribers.add(s);
  }

  unsubscribe(s: Subscriber): void {
    if (!this.subscribers.delete(s)) return;
    if (this.subscribers.size === 0) this.onIdle?.();
  }

  private drop(s: Subscriber): void {
    this.subscribers.delete(s);
    s.end();
    if (this.subscribers.size === 0) this.onIdle?.();
  }

  /** Ends every subscriber (the broadcast paused or ended); a viewer's player reconnects when it comes back. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const s of [...this.subscribers]) s.end();
    this.subscribers.clear();
  }

  private count(bytes: number): void {
    const now = Math.floor(Date.now() / 1000);
    if (this.secondStart === 0) this.secondStart = now;
    while (this.secondStart < now) {
      this.secondBytes.push(0);
      if (this.secondBytes.length > RATE_WINDOW_S) this.secondBytes.shift();
      this.secondStart++;
    }
    if (this.secondBytes.length === 0) this.secondBytes.push(0);
    this.secondBytes[this.secondBytes.length - 1]! += bytes;
  }

  /** Incoming kbps over the last whole seconds (the current one is still filling). */
  kbps(): number {
    this.count(0);
    const whole = this.secondBytes.slice(0, -1);
    if (whole.length === 0) return 0;
    return Math.round((whole.reduce((a, b) => a + b, 0) * 8) / whole.length / 1000);
  }
}
