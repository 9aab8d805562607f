/** What refuses a publish: its metadata or a packet's codec, and a declared bitrate over the cap. */
import { describe, expect, it } from 'vitest';
import { judge } from './ingest.ts';

const MAX = 6000;

describe('judge', () => {
  it.each([
    ['OBS’s H.264/AAC metadata', { videoCodec: 7, audioCodec: 10, width: 1280, height: 720, kbps: 4160 }, null],
    ['FourCC names', { videoCodec: 'avc1', audioCodec: 'mp4a', width: 640 }, null],
    ['video without audio', { videoCodec: 7, width: 640 }, null],
    ['HEVC', { videoCodec: 12, audioCodec: 10 }, { key: 'live.refused.codec', vars: { codec: 'HEVC' } }],
    ['MP3 audio', { videoCodec: 7, audioCodec: 2 }, { key: 'live.refused.codec', vars: { codec: 'MP3' } }],
    ['audio only', { audioCodec: 10 }, { key: 'live.refused.noVideo' }],
    [
      'over the cap',
      { videoCodec: 7, audioCodec: 10, width: 1920, kbps: 9000 },
      { key: 'live.refused.bitrate', vars: { kbps: 9000, max: MAX } },
    ],
  ] as const)('metadata: %s', (_, meta, verdict) => {
    expect(judge({ ...meta }, null, MAX)).toEqual(verdict);
  });

  it.each([
    ['an H.264 frame', { codec_type: 9, codec_id: 7 }, null],
    ['an AAC frame', { codec_type: 8, codec_id: 10 }, null],
    ['a VP6 frame', { codec_type: 9, codec_id: 4 }, { key: 'live.refused.codec', vars: { codec: 'VP6' } }],
    ['a Speex frame', { codec_type: 8, codec_id: 11 }, { key: 'live.refused.codec', vars: { codec: 'Speex' } }],
    ['script data', { codec_type: 18, codec_id: 0 }, null],
  ] as const)('packet: %s', (_, packet, verdict) => {
    expect(judge(null, packet, MAX)).toEqual(verdict);
  });
});
