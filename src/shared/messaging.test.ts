import { describe, expect, it } from 'vitest';
import { NOTICE_GROUPS, NOTICE_KINDS } from './messaging.ts';

describe('NOTICE_GROUPS', () => {
  it('covers every kind once across the five filters besides 全部消息', () => {
    const { all, ...rest } = NOTICE_GROUPS;
    expect([...all].sort()).toEqual([...NOTICE_KINDS].sort());
    expect(Object.values(rest).flat().sort()).toEqual([...NOTICE_KINDS].sort());
  });
});
