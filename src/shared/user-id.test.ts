import { describe, expect, it } from 'vitest';
import { isSecUid, SEC_UID_MAX } from './user-id.ts';

describe('isSecUid', () => {
  it.each([
    ['MS4wLjABAAAA' + 'a-_Z9'.repeat(8), true],
    ['x'.repeat(SEC_UID_MAX), true],
    ['x'.repeat(SEC_UID_MAX + 1), false],
    ['', false],
    ['a b', false],
    ['a/b', false],
    ['小明', false],
  ])('%s → %s', (value, ok) => {
    expect(isSecUid(value)).toBe(ok);
  });
});
