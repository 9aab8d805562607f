import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { normalizeQuery, searchVideos } from './search.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

describe('search', () => {
  it('cuts queries at 100 characters and treats blank as nothing', async () => {
    expect([...normalizeQuery('美'.repeat(101))].length).toBe(100);
    expect(normalizeQuery('   ')).toBe('');
    expect((await searchVideos('  ')).items).toEqual([]);
  });

  it('finds two-character Chinese words in titles', async () => {
    const { items } = await searchVideos('美食', { count: 20 });
    expect(items.length).toBeGreaterThan(5);
    for (const v of items) expect(`${v.desc} ${v.author.nickname}`).toMatch(/美|食/);
    expect(items.filter((v) => v.desc.includes('美食')).length).toBeGreaterThan(0);
  });
});
