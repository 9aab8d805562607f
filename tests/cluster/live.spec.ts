/**
 * Live streaming across app servers: ffmpeg publishes to web1's RTMP port, and the room plays through web2, which
 * relays the stream from web1 (live_rooms.origin), and through HAProxy whichever server it picks.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { toolPath } from '../../src/server/media/tools.ts';
import { cluster, expect, loginDemo, servedBy, test } from './support.ts';

const run = promisify(execFile);

test('a stream published to web1 plays through web2 (relayed) and through HAProxy', async ({ page, request }) => {
  test.setTimeout(90_000);
  const [web1, web2] = cluster().webs;
  const demo = await loginDemo(request);
  const key = await request.post('/api/studio/live/key', { headers: { Token: demo.token } });
  expect(key.status()).toBe(200);
  const { data } = (await key.json()) as { data: { key: string; server: string } };
  // The studio shows HAProxy's RTMP door; this test publishes to web1 itself, so that the relay is certain.
  expect(data.server).toBe(cluster().rtmpUrl);
  const ffmpeg = spawn(
    toolPath('ffmpeg'),
    [
      ...[
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x180:rate=25',
      ],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-tune', 'zerolatency', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv'],
      `rtmp://127.0.0.1:${web1!.rtmpPort}/live/${data.key}`,
    ],
    { stdio: 'ignore' },
  );
  try {
    // On air, ingested by web1.
    let roomId = 0;
    await expect(async () => {
      const now = (await (await request.get('/api/live/now')).json()) as { data: { id: number }[] };
      roomId = now.data[0]?.id ?? 0;
      expect(roomId).toBeGreaterThan(0);
    }).toPass({ timeout: 10_000 });

    // web2 holds no stream of its own: what it serves is web1's, relayed, and it decodes as H.264 with AAC.
    const probe = await run(
      toolPath('ffprobe'),
      ['-v', 'error', '-show_streams', '-of', 'json', '-read_intervals', '%+2', `${web2!.url}/live/${roomId}.flv`],
      { timeout: 20_000 },
    );
    const streams = (JSON.parse(probe.stdout) as { streams: { codec_name: string; width?: number }[] }).streams;
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(320);
    const head = await fetch(`${web2!.url}/live/${roomId}.flv`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(servedBy(head.headers)).toBe('web2');

    // HLS from web2 too: a playlist of segments packaged from the relayed stream.
    const playlist = await fetch(`${web2!.url}/live/${roomId}/index.m3u8`);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toMatch(/#EXTINF:[\d.]+,\ns\d+\.ts/);

    // A browser through HAProxy: the room plays whichever server answers its stream.
    await page.goto(`/live/${roomId}`);
    const video = page.locator('[data-live-video]');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(1);
  } finally {
    ffmpeg.kill('SIGINT');
  }
});
