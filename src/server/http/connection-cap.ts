/** Caps the connections one remote address holds open at once: a connection beyond the cap is closed as it comes. */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Counts open connections per address on `server` and closes at once, unread and unanswered, a connection that comes
 * when its address already holds `max` (0: no cap). Answering it instead (a 503) would keep a parser, buffers and a
 * descriptor for as long as the client takes to send a request, which a client that sends none never does. A refused
 * connection is not counted; the count of an address goes when its last connection closes.
 */
export function capConnectionsPerAddress(server: Server, max: number): { open(address: string): number } {
  const open = new Map<string, number>();
  if (max > 0) {
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const n = (open.get(address) ?? 0) + 1;
      if (n > max) return void socket.destroy();
      open.set(address, n);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0 };
}
