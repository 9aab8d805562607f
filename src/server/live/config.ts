/** Live streaming's settings, as the configuration (config.ts) read them, in the shape the live modules use. */
import { config, type Config } from '../config.ts';

export interface LiveConfig {
  /** RTMP ingest port; 0 turns ingest off (the site still plays what other app servers ingest). */
  rtmpPort: number;
  /** Address the RTMP server listens on. */
  rtmpHost: string;
  /** A publisher sending more than this many kbps (video and audio) is refused. */
  maxKbps: number;
  /** How the other app servers reach this one's HTTP port, to relay the streams it ingests. */
  internalUrl: string;
  /** The RTMP server address shown to hosts, when the site's public name is not the way to reach it. */
  publicRtmpUrl: string | null;
  /** Whether HLS (for browsers without Media Source Extensions) is made. */
  hls: boolean;
}

const made = new WeakMap<Config, LiveConfig>();

/** The live settings of this process's configuration. */
export function liveConfig(settings: Config = config()): LiveConfig {
  let live = made.get(settings);
  if (!live) {
    live = {
      rtmpPort: settings.RTMP_PORT,
      rtmpHost: settings.HOST,
      maxKbps: settings.LIVE_MAX_KBPS,
      internalUrl: settings.LIVE_INTERNAL_URL ?? `http://127.0.0.1:${settings.PORT}`,
      publicRtmpUrl: settings.LIVE_RTMP_URL ?? null,
      hls: settings.LIVE_HLS,
    };
    made.set(settings, live);
  }
  return live;
}

/** The RTMP application every stream key is published under: rtmp://host:port/live, key = the stream name. */
export const RTMP_APP = 'live';
