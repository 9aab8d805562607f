import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { serverLimits } from './server-limits.ts';

describe('serverLimits', () => {
  it('has defaults for every limit', () => {
    expect(serverLimits(loadConfig({}))).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerIp: 256,
    });
  });

  it('reads the settings, and keeps the headers time-out within the request time-out as Node requires', () => {
    const limits = serverLimits(
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '20000', MAX_CONNECTIONS_PER_IP: '0' }),
    );
    expect(limits).toMatchObject({ headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, maxConnectionsPerIp: 0 });
  });

  it('names a setting that is not a whole number', () => {
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5s' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '-1' })).toThrow(/MAX_CONNECTIONS_PER_IP/);
  });
});
