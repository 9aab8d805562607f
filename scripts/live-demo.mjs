/**
 * `npm run live:demo`: goes live in the demo account's room with a test card, as OBS would. Logs in as the demo member
 * on a running server (LIVE_DEMO_URL, default http://localhost:$PORT or :4321), makes the account a new stream key in
 * its studio (the old one stops working), and runs ffmpeg to publish a 1280x720 test pattern with the time on it and a
 * tone over RTMP (x264, a key frame every 2 s, AAC). Prints the room's address; Ctrl-C stops streaming, which ends
 * the broadcast.
 */
import { spawn } from 'node:child_process';

const BASE = (process.env.LIVE_DEMO_URL || `http://localhost:${process.env.PORT || 4321}`).replace(/\/+$/, '');

async function call(path, init = {}) {
  const res = await fetch(`${BASE}${path}`, { ...init, headers: { origin: BASE, ...init.headers } }).catch((error) => {
    throw new Error(
      `${BASE} does not answer (${error.cause?.code ?? error.message}): start the site first (npm start)`,
    );
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body.msg ?? body.status_msg ?? ''}`);
  return body;
}

async function main() {
  const demo = await call('/api/passport/demo');
  if (!demo.email) throw new Error('this site has no demo account');
  const login = await call('/api/passport/login/password', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  const headers = { Token: login.token };
  const { data } = await call('/api/studio/live/key', { method: 'POST', headers });
  const target = `${data.server}/${data.key}`;
  console.log(`Publishing a test card to ${data.server} with the demo account's new stream key…`);

  const card = [
    "drawtext=text='闪映 直播测试':fontsize=64:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=16:x=(w-tw)/2:y=h/2-120",
    "drawtext=text='%{localtime\\:%H\\\\\\:%M\\\\\\:%S}':fontsize=96:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=16:x=(w-tw)/2:y=h/2",
  ].join(',');
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30'],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=523:beep_factor=4', '-vf', card],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-b:v', '2500k', '-maxrate', '2500k'],
      ...['-bufsize', '5000k', '-g', '60', '-keyint_min', '60', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-f', 'flv', target],
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  ffmpeg.on('error', (error) => {
    console.error(`ffmpeg could not start (${error.message}): install it (Debian: apt-get install ffmpeg)`);
    process.exit(1);
  });
  process.on('SIGINT', () => ffmpeg.kill('SIGINT'));
  process.on('SIGTERM', () => ffmpeg.kill('SIGINT'));

  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const studio = await call('/api/studio/live', { headers }).catch(() => null);
    const room = studio?.data.broadcast?.roomId;
    if (room) {
      console.log(`On air: ${BASE}/live/${room}  (Ctrl-C ends the broadcast)`);
      break;
    }
    if (studio?.data.refusal && Date.now() - studio.data.refusal.at < 10_000) {
      console.error(`Refused: ${studio.data.refusal.reason}`);
      break;
    }
  }
  ffmpeg.on('exit', (code) => process.exit(code === 255 ? 0 : (code ?? 0)));
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
