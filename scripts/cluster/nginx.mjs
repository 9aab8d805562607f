/**
 * nginx (Debian's `nginx`) run with deploy/nginx.conf as the cluster's shared cache in front of HAProxy: the file as an
 * operator gets it, with only its addresses and paths changed for this machine, so the caching that runs here is the
 * shipped one.
 */
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isListening, runAs, Service, waitFor } from './processes.mjs';

/**
 * `conf` with each directive named in `values` given that value in place of the shipped one (`values`: {directive:
 * value}; `server` means the balancer's upstream server). Each must be in the file once: a directive the shipped file
 * lacks would be one this cluster does not prove.
 */
export function overrideNginx(conf, values) {
  let out = conf;
  for (const [directive, value] of Object.entries(values)) {
    const pattern = new RegExp(`^(\\s*)${directive}\\s+[^;{\\n]*;`, 'm');
    const found = out.match(new RegExp(pattern.source, 'gm')) ?? [];
    if (found.length !== 1) throw new Error(`deploy/nginx.conf has ${found.length} '${directive}' directives, not one`);
    out = out.replace(pattern, (_, indent) => `${indent}${directive} ${value};`);
  }
  return out;
}

/** Starts nginx on `port` in front of HAProxy at `balancerPort`, its cache and logs under `dir` and `logDir`. */
export async function startNginx({ root, dir, logDir, port, balancerPort }) {
  // Workers run as www-data when nginx is started as root (the shipped `user`): they write the cache.
  const as = runAs('www-data');
  const cache = path.join(dir, 'cache');
  for (const sub of [cache, path.join(dir, 'body'), path.join(dir, 'proxy')]) mkdirSync(sub, { recursive: true });
  if (as)
    for (const sub of [dir, cache, path.join(dir, 'body'), path.join(dir, 'proxy')]) chownSync(sub, as.uid, as.gid);
  const shipped = readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8');
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(
    config,
    overrideNginx(shipped, {
      // Two cores: one worker is the cluster's share.
      worker_processes: '1',
      pid: path.join(dir, 'nginx.pid'),
      access_log: `${path.join(logDir, 'nginx-access.log')} cache`,
      client_body_temp_path: path.join(dir, 'body'),
      proxy_temp_path: path.join(dir, 'proxy'),
      proxy_cache_path: `${cache} levels=1:2 keys_zone=shanying:16m max_size=512m inactive=10m use_temp_path=off`,
      server: `127.0.0.1:${balancerPort}`,
      listen: `127.0.0.1:${port}`,
    }),
  );
  const service = new Service(
    'nginx',
    'nginx',
    ['-e', path.join(logDir, 'nginx-error.log'), '-c', config, '-g', 'daemon off;'],
    {
      env: { PATH: process.env.PATH },
      cwd: dir,
      logFile: path.join(logDir, 'nginx.log'),
      // The whole cluster is going away: a fast stop (SIGTERM), not the graceful one that waits for event streams.
      stopSignal: 'SIGTERM',
      graceMs: 5_000,
    },
  ).start();
  await waitFor('nginx listens', () => isListening(port), {
    detail: () => `${service.tail()}${readErrorLog(logDir)}`,
  });
  return service;
}

function readErrorLog(logDir) {
  try {
    return readFileSync(path.join(logDir, 'nginx-error.log'), 'utf8').slice(-4_000);
  } catch {
    return '';
  }
}
