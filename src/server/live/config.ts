/** Live streaming's settings, read once from the environment (README's settings table lists them). */
import { logLine } from '../log.ts';

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

function int(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    logLine(
      'error',
      `${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)}); using ${fallback}`,
    );
    return fallback;
  }
  return n;
}

let cached: LiveConfig | undefined;

/** The settings, read on first use. */
export function liveConfig(): LiveConfig {
  if (cached) return cached;
  const port = Number(process.env.PORT || 4321);
  const internal = (process.env.LIVE_INTERNAL_URL ?? '').trim().replace(/\/+$/, '');
  const rtmpUrl = (process.env.LIVE_RTMP_URL ?? '').trim().replace(/\/+$/, '');
  cached = {
    rtmpPort: int('RTMP_PORT', 1935, 0, 65535),
    rtmpHost: process.env.HOST || '0.0.0.0',
    maxKbps: int('LIVE_MAX_KBPS', 6000, 100, 1_000_000),
    internalUrl: /^https?:\/\/[^/]+$/.test(internal) ? internal : `http://127.0.0.1:${port}`,
    publicRtmpUrl: /^rtmps?:\/\/[^/]+(\/[\w-]+)?$/.test(rtmpUrl) ? rtmpUrl : null,
    hls: !/^(0|off|false)$/i.test(process.env.LIVE_HLS ?? ''),
  };
  return cached;
}

/** Tests start servers with other settings in one process. */
export function resetLiveConfig(): void {
  cached = undefined;
}

/** The RTMP application every stream key is published under: rtmp://host:port/live, key = the stream name. */
export const RTMP_APP = 'live';
