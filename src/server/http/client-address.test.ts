import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it('is the peer without TRUST_PROXY, whatever X-Forwarded-For says', () => {
    expect(clientAddress('10.0.0.5', '203.0.113.7', loadConfig({}))).toBe('10.0.0.5');
  });

  it('is the address the trusted proxy appended last, not one the client wrote before it', () => {
    const env = loadConfig({ TRUST_PROXY: '1' });
    expect(clientAddress('10.0.0.5', '203.0.113.7', env)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.5', '198.51.100.1, 203.0.113.7', env)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.5', '2001:db8::1', env)).toBe('2001:db8::1');
  });

  it('falls back to the peer when the header is missing or not an address', () => {
    const env = loadConfig({ TRUST_PROXY: 'true' });
    expect(clientAddress('10.0.0.5', undefined, env)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '', env)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '203.0.113.7, not-an-ip', env)).toBe('10.0.0.5');
  });
});
