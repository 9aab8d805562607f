/**
 * The parts of node-media-server (pinned to one version in package.json) this folder uses: its RTMP session (handshake,
 * chunk streams, AMF commands, publish state), its FLV tag parser and writer, and its AMF0 decoder. The package ships
 * plain CommonJS with JSDoc, no declarations.
 */
declare module 'node-media-server/src/core/avpacket.js' {
  class AVPacket {
    codec_id: number;
    /** 8 audio, 9 video, 18 script data. */
    codec_type: number;
    /** 0 audio header, 1 audio frame, 2 video header, 3 key frame, 4 inter frame, 5 metadata. */
    flags: number;
    pts: number;
    dts: number;
    size: number;
    data: Buffer;
  }
  export = AVPacket;
}

declare module 'node-media-server/src/core/context.js' {
  import type { EventEmitter } from 'node:events';
  const Context: {
    config: { bind?: string; rtmp?: { port?: number } };
    sessions: Map<string, unknown>;
    broadcasts: Map<string, { publisher: unknown; publishGraceMs: number; getPublishStatus(): string }>;
    eventEmitter: EventEmitter;
  };
  export = Context;
}

declare module 'node-media-server/src/core/logger.js' {
  const logger: { level: string; log(message: string, level?: string): void };
  export = logger;
}

declare module 'node-media-server/src/session/rtmp_session.js' {
  import type { Socket } from 'node:net';
  import type AVPacket from 'node-media-server/src/core/avpacket.js';
  class RtmpSession {
    constructor(socket: Socket);
    id: string;
    ip: string;
    socket: Socket;
    streamApp: string;
    streamName: string;
    streamPath: string;
    streamQuery: Record<string, string>;
    isPublisher: boolean;
    broadcast: { publisher: unknown; publishGraceMs: number; getPublishStatus(): string };
    rtmp: { onPacketCallback: (packet: AVPacket) => void; onDeleteStream: (message: unknown) => void };
    run(): void;
    close(): void;
  }
  export = RtmpSession;
}

declare module 'node-media-server/src/protocol/flv.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';
  class Flv {
    onPacketCallback: (packet: AVPacket) => void;
    /** Feeds bytes of an FLV stream; answers an error message when they do not parse. */
    parserData(buffer: Buffer): string | null;
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    /** The FLV tag of a packet (a copy: the packet's buffer may be reused by its parser). */
    static createMessage(packet: AVPacket): Buffer;
  }
  export = Flv;
}

declare module 'node-media-server/src/protocol/amf.js' {
  export function decodeAmf0Data(data: Buffer): { cmd: string; dataObj: Record<string, unknown> | null };
}
