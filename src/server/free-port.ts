/**
 * A TCP port free on 127.0.0.1 now, for a server that binds it later (the embedded PostgreSQL after initdb, a test's
 * app server after its database is up, the cluster's services).
 *
 * Picked below the kernel's ephemeral range (32768-60999 by default), not by binding port 0: a port the kernel hands
 * out that way is its to give again to any outgoing connection (a database client's, a fetch's) in the seconds before
 * the server binds it, and the server then fails with EADDRINUSE.
 */
import net from 'node:net';

const LOWEST = 20_000;
const SPAN = 12_000;

/** Ports this process handed out: each goes to one server, though it is not bound yet. */
const handedOut = new Set<number>();

/** Whether 127.0.0.1:`port` can be listened on right now. */
export function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${LOWEST + SPAN} on 127.0.0.1`);
}
