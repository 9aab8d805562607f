import { describe, expect, it } from 'vitest';
import { NOTICE_GROUPS, NOTICE_KINDS, SITE_NOTICE_KINDS } from './messaging.ts';

describe('NOTICE_GROUPS', () => {
  it('covers every kind once across the five filters besides 全部消息 (the site’s own notices only there)', () => {
    const { all, ...rest } = NOTICE_GROUPS;
    expect([...all].sort()).toEqual([...NOTICE_KINDS].sort());
    const byPeople = NOTICE_KINDS.filter((k) => !(SITE_NOTICE_KINDS as readonly string[]).includes(k));
    expect(Object.values(rest).flat().sort()).toEqual(byPeople.sort());
  });
});
