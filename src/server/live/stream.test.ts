/** A broadcast's fan-out: what a joiner gets first, a subscriber that falls behind, the timeline across sources. */
import AVPacket from 'node-media-server/src/core/avpacket.js';
import { describe, expect, it } from 'vitest';
import { LiveStream, type Subscriber } from './stream.ts';

function packet(codecType: number, flags: number, dts: number, bytes = [0]): AVPacket {
  const p = new AVPacket();
  p.codec_type = codecType;
  p.flags = flags;
  p.dts = dts;
  p.pts = dts;
  p.data = Buffer.from(bytes);
  p.size = bytes.length;
  return p;
}

/** Collects the FLV tags a subscriber gets as [type, timestamp]. */
function collector(keep = true): Subscriber & { tags: [number, number][]; ended: boolean } {
  const s = {
    tags: [] as [number, number][],
    ended: false,
    write(chunk: Buffer) {
      // The FLV file header (13 bytes: 'FLV', version, flags, size, first previous-tag size) is not a tag.
      if (chunk.subarray(0, 3).toString() !== 'FLV') s.tags.push([chunk[0]!, chunk.readUIntBE(4, 3)]);
      return keep;
    },
    end() {
      s.ended = true;
    },
  };
  return s;
}

describe('LiveStream', () => {
  it('gives a joiner the codec headers and the group of pictures from its key frame, then live tags', () => {
    const s = new LiveStream(1);
    s.push(packet(8, 0, 0)); // audio header
    s.push(packet(9, 2, 0)); // video header
    s.push(packet(9, 3, 0)); // key frame
    s.push(packet(9, 4, 40));
    s.push(packet(9, 3, 2000)); // a new group begins: the old one is dropped
    s.push(packet(8, 1, 2010));
    const joiner = collector();
    s.subscribe(joiner);
    s.push(packet(9, 4, 2040));
    expect(joiner.tags).toEqual([
      [8, 0],
      [9, 0],
      [9, 2000],
      [8, 2010],
      [9, 2040],
    ]);
    expect(s.hasVideo).toBe(true);
    expect(s.keyFrame()).not.toBeNull();
  });

  it('drops a subscriber that says it is too far behind, and ends every one when the stream ends', () => {
    const s = new LiveStream(1);
    s.push(packet(9, 2, 0));
    const slow = collector(false);
    const fine = collector();
    s.subscribe(slow);
    s.subscribe(fine);
    expect(slow.ended).toBe(true);
    expect(s.subscriberCount).toBe(1);
    s.end();
    expect(fine.ended).toBe(true);
    expect(s.subscriberCount).toBe(0);
  });

  it('continues the timeline when a new source starts again from zero', () => {
    const s = new LiveStream(1);
    s.push(packet(9, 3, 5000));
    s.newSource();
    const joiner = collector();
    s.subscribe(joiner);
    s.push(packet(9, 3, 0));
    expect(joiner.tags.at(-1)).toEqual([9, 5001]);
  });
});
