import { describe, expect, it } from 'vitest';
import { coversTargets, marksQuery } from './marks-query.ts';

describe('the marks call’s query', () => {
  it('lists the videos, the people, the series and the profile, leaving out what is empty', () => {
    expect(marksQuery({ videos: ['1', '2'], users: ['MS4wA'], series: '3', visit: 'MS4wB' })).toBe(
      'videos=1%2C2&users=MS4wA&series=3&visit=MS4wB',
    );
    expect(marksQuery({ videos: [], users: [] })).toBe('');
  });

  it('covers a page only when it asks for every video and person the page shows, and the same series and profile', () => {
    const query = marksQuery({ videos: ['1', '2'], users: ['MS4wA'], series: '3' });
    expect(coversTargets(query, { videos: ['2'], users: ['MS4wA'], series: '3' })).toBe(true);
    expect(coversTargets(query, { videos: ['2', '4'], users: ['MS4wA'], series: '3' })).toBe(false);
    expect(coversTargets(query, { videos: ['1'], users: ['MS4wB'], series: '3' })).toBe(false);
    expect(coversTargets(query, { videos: ['1'], users: [] })).toBe(false);
    expect(coversTargets(query, { videos: ['1'], users: [], series: '3', visit: 'MS4wA' })).toBe(false);
    expect(coversTargets('', { videos: [], users: [] })).toBe(true);
  });
});
