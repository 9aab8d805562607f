import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { bindable, freePort } from './free-port.ts';

/** The kernel's range for outgoing connections' ports on this machine (Linux), or its default. */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
}

describe('freePort', () => {
  it('hands out distinct ports below the range the kernel gives outgoing connections, each one bindable', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralLow());
      expect(await bindable(port)).toBe(true);
    }
  });

  it('does not take a port something already listens on as bindable', async () => {
    const taken = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      expect(await bindable(port)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
