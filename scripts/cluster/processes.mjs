/**
 * The plumbing of `npm run cluster`: child processes that log to files and stop on request, free ports, waiting for a
 * condition, and running a program as the `postgres` user (PostgreSQL and PgBouncer refuse to run as root).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export { freePort } from '../../src/server/free-port.ts';

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` (truthy = done) every `every` ms until `timeoutMs`; throws with `what` and `detail()` after that. */
export async function waitFor(what, check, { timeoutMs = 60_000, every = 200, detail = () => '' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(every);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message ?? last})` : ''}\n${detail()}`);
}

/** uid and gid of `user`, when this process is root and may become it; undefined otherwise (run as ourselves). */
export function runAs(user) {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g'), user };
}

/** An environment for a program run as `as`: no root HOME it cannot read, a UTF-8 locale. */
export function envFor(as, extra = {}) {
  const home = as
    ? spawnSync('sh', ['-c', `getent passwd ${as.user} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim() || '/tmp'
    : process.env.HOME;
  return { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: home, ...extra };
}

/** Runs a program to completion (as `as` when given), throwing with its output when it fails. */
export function runSync(command, args, { as, env, cwd } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: env ?? envFor(as),
    encoding: 'utf8',
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? result.signal ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * One long-running program of the cluster, in the foreground, its stdout and stderr appended to `logFile`. `stop()`
 * sends `signal` and waits (SIGKILL after `graceMs`); `kill()` is the hard way, as a crash would be.
 */
export class Service {
  constructor(name, command, args, { env, cwd, logFile, as, stopSignal = 'SIGTERM', graceMs = 20_000 }) {
    Object.assign(this, { name, command, args, env, cwd, logFile, as, stopSignal, graceMs });
    this.child = undefined;
    this.exited = Promise.resolve();
  }

  start() {
    const fd = openSync(this.logFile, 'a');
    try {
      this.child = spawn(this.command, this.args, {
        cwd: this.cwd,
        env: this.env,
        stdio: ['ignore', fd, fd],
        ...(this.as ? { uid: this.as.uid, gid: this.as.gid } : {}),
      });
    } finally {
      closeSync(fd);
    }
    const child = this.child;
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.once('error', (error) => console.error(`${this.name}: ${error.message}`));
    return this;
  }

  get running() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid() {
    return this.child?.pid;
  }

  /** The last `chars` characters of the log, for error messages. */
  tail(chars = 4_000) {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-chars);
    } catch {
      return '';
    }
  }

  async stop(signal = this.stopSignal) {
    if (!this.running) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.running && this.child.kill('SIGKILL'), this.graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  async kill() {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
