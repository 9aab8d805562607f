/**
 * PgBouncer (Debian's `pgbouncer`) run with deploy/pgbouncer.ini: the file as an operator gets it, with only the
 * addresses, ports and file paths changed for this machine, so the pooling settings that run here are the shipped ones.
 */
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { envFor, isListening, runAs, Service, waitFor } from './processes.mjs';

/**
 * `ini` with the values of `overrides` ({section: {key: value}}) in place of the file's; every key must already be in
 * its section (a setting the shipped file lacks would be one this cluster does not prove). Comments stay as they are.
 */
export function overrideIni(ini, overrides) {
  const missing = new Set(
    Object.entries(overrides).flatMap(([section, keys]) => Object.keys(keys).map((key) => `${section}.${key}`)),
  );
  let section = '';
  const lines = ini.split('\n').map((line) => {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      section = header[1];
      return line;
    }
    const setting = /^(\s*)([^;#=\s][^=]*?)\s*=/.exec(line);
    if (!setting) return line;
    const key = setting[2];
    const value = overrides[section]?.[key];
    if (value === undefined) return line;
    missing.delete(`${section}.${key}`);
    return `${setting[1]}${key} = ${value}`;
  });
  if (missing.size > 0) throw new Error(`not in the ini file: ${[...missing].join(', ')}`);
  return lines.join('\n');
}

/** Starts PgBouncer on `port` in front of the primary at `primaryPort`, knowing `users` ({name: password}). */
export async function startPgBouncer({ root, dir, logDir, port, primaryPort, database = 'shanying', users }) {
  const as = runAs('postgres');
  mkdirSync(dir, { recursive: true });
  const userlist = path.join(dir, 'userlist.txt');
  writeFileSync(
    userlist,
    Object.entries(users)
      .map(([name, password]) => `"${name}" "${password}"\n`)
      .join(''),
    { mode: 0o600 },
  );
  const config = path.join(dir, 'pgbouncer.ini');
  const shipped = readFileSync(path.join(root, 'deploy', 'pgbouncer.ini'), 'utf8');
  writeFileSync(
    config,
    overrideIni(shipped, {
      databases: { [database]: `host=127.0.0.1 port=${primaryPort} dbname=${database}` },
      pgbouncer: {
        listen_addr: '127.0.0.1',
        listen_port: String(port),
        auth_file: userlist,
        // Logs go to stderr, which the cluster writes to logs/pgbouncer.log.
        logfile: '',
        pidfile: '',
      },
    }),
  );
  if (as) for (const file of [dir, userlist, config]) chownSync(file, as.uid, as.gid);
  const service = new Service('pgbouncer', 'pgbouncer', [config], {
    env: envFor(as),
    cwd: dir,
    logFile: path.join(logDir, 'pgbouncer.log'),
    as,
    // SIGINT: PgBouncer waits for the transactions in flight, then exits ("safe shutdown").
    stopSignal: 'SIGINT',
    graceMs: 10_000,
  }).start();
  await waitFor('PgBouncer listens', () => isListening(port), { detail: () => service.tail() });
  return service;
}
