import { describe, expect, it } from 'vitest';
import { INTERACTION_KINDS, NOTICE_GROUPS, NOTICE_KINDS } from './messaging.ts';

describe('NOTICE_GROUPS', () => {
  it('shows every kind under 全部消息, and every interaction once across the five other filters', () => {
    const { all, ...rest } = NOTICE_GROUPS;
    expect([...all].sort()).toEqual([...NOTICE_KINDS].sort());
    expect(Object.values(rest).flat().sort()).toEqual([...INTERACTION_KINDS].sort());
  });
});
