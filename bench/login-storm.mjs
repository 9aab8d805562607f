/**
 * `node bench/login-storm.mjs [base] [logins at once]`: what a burst of password logins does to everything else the
 * server answers. A logged-in /discover (rendered and brotli-compressed per request, on libuv's thread pool, as the
 * password hash is) is loaded at 4 connections for 8 s alone, then while `logins at once` loops log the demo account in
 * back to back. Run it against a server started with RATE_LIMIT_IP_FACTOR raised (say 100000), or the login limits
 * answer the storm with 429s instead of hashes. A benchmark: it prints figures, it never fails.
 */
import autocannon from 'autocannon';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
const storm = Number(process.argv[3] ?? 6);
const demo = await (await fetch(`${base}/api/passport/demo`)).json();
const login = () =>
  fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
const { token } = await (await login()).json();

async function pages(label) {
  const r = await autocannon({
    url: `${base}/discover`,
    connections: 4,
    duration: 8,
    headers: { token, 'accept-encoding': 'br' },
  });
  console.log(
    `${label}: pages ${r.requests.average} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, non-2xx ${r.non2xx}`,
  );
}

await pages('warm-up');
await pages('alone');
let on = true;
const took = [];
const loops = Array.from({ length: storm }, async () => {
  while (on) {
    const t = performance.now();
    await (await login()).arrayBuffer();
    took.push(performance.now() - t);
  }
});
await new Promise((r) => setTimeout(r, 500));
await pages(`with ${storm} logins at once`);
on = false;
await Promise.all(loops);
took.sort((a, b) => a - b);
console.log(
  `logins: ${took.length}, p50 ${Math.round(took[took.length >> 1] ?? 0)} ms, max ${Math.round(took.at(-1) ?? 0)} ms`,
);
