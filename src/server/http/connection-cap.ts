/** Caps the connections one remote address holds open at once: requests on the ones beyond the cap answer 503. */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const beyond = new WeakSet<Socket>();

/**
 * Counts open connections per address on `server`; `isBeyondCap(socket)` then says whether a connection came when its
 * address already held `max` (0: no cap). The count of an address goes when its last connection closes.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
): { isBeyondCap(socket: Socket): boolean; open(address: string): number } {
  const open = new Map<string, number>();
  if (max > 0) {
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const n = (open.get(address) ?? 0) + 1;
      open.set(address, n);
      if (n > max) beyond.add(socket);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return { isBeyondCap: (socket) => beyond.has(socket), open: (address) => open.get(address) ?? 0 };
}
