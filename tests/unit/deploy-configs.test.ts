/**
 * The operator's configuration in deploy/ is the one `npm run cluster` runs: HAProxy's file parses as it ships (with
 * the addresses from the environment), PgBouncer's file takes the cluster's addresses without losing a setting, and
 * Patroni's file holds the failover settings the cluster's tests rely on.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { overrideIni } from '../../scripts/cluster/pgbouncer.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// Never skipped: without HAProxy (Debian's haproxy, which .ci/run installs) these checks fail and say so.
const haproxy = spawnSync('haproxy', ['-v']).status === 0;

describe('deploy/haproxy.cfg', () => {
  const check = (env: Record<string, string>) => {
    if (!haproxy) throw new Error('haproxy not found: apt-get install -y haproxy');
    return spawnSync('haproxy', ['-c', '-f', path.join(ROOT, 'deploy', 'haproxy.cfg')], {
      env: { PATH: process.env.PATH, HAPROXY_ADMIN_SOCKET: path.join(os.tmpdir(), 'sy-haproxy-check.sock'), ...env },
      encoding: 'utf8',
    });
  };

  it('is valid with the addresses from the environment', () => {
    const result = check({
      LB_BIND: '127.0.0.1:18080',
      WEB1: '127.0.0.1:18081',
      WEB2: '127.0.0.1:18082',
      S3_ADDR: '127.0.0.1:18083',
      MEDIA_S3_PATH: '/b/media',
      RTMP_BIND: '127.0.0.1:18084',
      RTMP1: '127.0.0.1:18085',
      RTMP2: '127.0.0.1:18086',
      PG_PRIMARY_BIND: '127.0.0.1:18087',
      PG_REPLICA_BIND: '127.0.0.1:18088',
      PG1: '127.0.0.1:18089',
      PG2: '127.0.0.1:18090',
      PG3: '127.0.0.1:18091',
      PG1_API_PORT: '18092',
      PG2_API_PORT: '18093',
      PG3_API_PORT: '18094',
    });
    expect(`${result.stdout}${result.stderr}`).toContain('Configuration file is valid');
    expect(result.status).toBe(0);
  });

  it('refuses to start on its placeholder hosts, rather than send traffic somewhere unintended', () => {
    const result = check({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/could not resolve address 'web1\.internal'/);
  });

  it('retries only GET and HEAD past a connection failure, and holds event streams open', () => {
    const cfg = readFileSync(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');
    expect(cfg).toMatch(/^\s*retry-on conn-failure empty-response response-timeout 503$/m);
    expect(cfg).toMatch(/^\s*http-request disable-l7-retry if !METH_GET$/m);
    expect(cfg).toMatch(/^\s*option httpchk GET \/readyz$/m);
    expect(cfg).toMatch(/^\s*http-request set-timeout server 1h if \{ path \/api\/events \}$/m);
  });

  it("sends database connections to the member Patroni calls the primary, reads to its replicas, and cuts a demoted one's", () => {
    const cfg = readFileSync(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');
    const section = (name: string) => cfg.split(/^listen /m).find((part) => part.startsWith(name)) ?? '';
    expect(section('postgres_primary')).toMatch(/^\s*http-check send meth GET uri \/primary$/m);
    expect(section('postgres_replicas')).toMatch(/^\s*http-check send meth GET uri \/replica$/m);
    for (const name of ['postgres_primary', 'postgres_replicas']) {
      expect(section(name)).toMatch(/^\s*http-check expect status 200$/m);
      expect(section(name)).toMatch(/^\s*default-server .*on-marked-down shutdown-sessions/m);
      expect(section(name).match(/^\s*server pg\d .* check port /gm)).toHaveLength(3);
    }
    // With every app server out (the database switching), HAProxy's own 503 tells clients when to try again.
    expect(cfg).toMatch(/^\s*http-error status 503 .* hdr Retry-After 2/m);
    expect(cfg).toMatch(/^\s*http-request return status 503 .* hdr Retry-After 2 .*\{ nbsrv\(app\) eq 0 \}$/m);
  });
});

describe('overrideIni (deploy/pgbouncer.ini)', () => {
  const shipped = readFileSync(path.join(ROOT, 'deploy', 'pgbouncer.ini'), 'utf8');

  it('changes the named settings and keeps every other line', () => {
    const out = overrideIni(shipped, {
      databases: { shanying: 'host=127.0.0.1 port=5555 dbname=shanying' },
      pgbouncer: { listen_port: '7777', auth_file: '/tmp/u.txt' },
    });
    expect(out).toMatch(/^shanying = host=127\.0\.0\.1 port=5555 dbname=shanying$/m);
    expect(out).toMatch(/^listen_port = 7777$/m);
    expect(out).toMatch(/^auth_file = \/tmp\/u\.txt$/m);
    expect(out).toMatch(/^pool_mode = transaction$/m);
    expect(out.split('\n')).toHaveLength(shipped.split('\n').length);
    const changed = out.split('\n').filter((line, i) => line !== shipped.split('\n')[i]);
    expect(changed).toHaveLength(3);
  });

  it('refuses a setting the shipped file does not have, or one in the wrong section', () => {
    expect(() => overrideIni(shipped, { pgbouncer: { no_such_setting: '1' } })).toThrow(/pgbouncer\.no_such_setting/);
    expect(() => overrideIni(shipped, { databases: { listen_port: '1' } })).toThrow(/databases\.listen_port/);
  });

  it('leaves comments alone', () => {
    const out = overrideIni('[pgbouncer]\n; listen_port = 1\nlisten_port = 2\n', { pgbouncer: { listen_port: '3' } });
    expect(out).toBe('[pgbouncer]\n; listen_port = 1\nlisten_port = 3\n');
  });
});

describe('deploy/patroni.yml', () => {
  const config = YAML.parse(readFileSync(path.join(ROOT, 'deploy', 'patroni.yml'), 'utf8'));
  const dcs = config.bootstrap.dcs;

  it('fails over at once when the primary crashes, losing nothing acknowledged, and rewinds the old primary', () => {
    expect(dcs.primary_start_timeout).toBe(0);
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    expect(dcs.postgresql.parameters.wal_log_hints).toBe('on');
  });

  it('switches within seconds, with timings Patroni accepts (loop_wait + 2 × retry_timeout ≤ ttl)', () => {
    expect(dcs.ttl).toBeLessThanOrEqual(12);
    expect(dcs.loop_wait + 2 * dcs.retry_timeout).toBeLessThanOrEqual(dcs.ttl);
  });
});
