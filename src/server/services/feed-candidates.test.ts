import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { CHANNEL_IDS } from './channel-ids.ts';
import { candidatesQuery, FactsTable } from './feed-candidates.ts';
import type { ViewerSignals } from './feed-ranker.ts';

const signals = (channels: [number, number][], authors: [number, number][]): ViewerSignals => ({
  channel: new Map(channels),
  author: new Map(authors),
  total: channels.reduce((a, [, w]) => a + w, 0),
  dislikedAuthor: new Map(),
  dislikedChannel: new Map(),
  watched: new Map(),
});

describe('the candidates query', () => {
  // A text that changed with the viewer would be prepared anew for each; a LIMIT or a list of unknown length as a
  // parameter makes PostgreSQL's generic plan look dearer than planning each call, which then costs as much as running it.
  it('is one text for every viewer, with its sizes written in and only the viewer and their lists as parameters', () => {
    const dialect = new PgDialect();
    const newcomer = dialect.sqlToQuery(candidatesQuery(7, signals([], []), CHANNEL_IDS, 0));
    const regular = dialect.sqlToQuery(
      candidatesQuery(
        9,
        signals(
          CHANNEL_IDS.map((c, i) => [c, i + 1]),
          Array.from({ length: 40 }, (_, i) => [1000 + i, 40 - i]),
        ),
        CHANNEL_IDS,
        86_400_000 * 3,
      ),
    );
    expect(regular.sql).toBe(newcomer.sql);
    expect(newcomer.sql).not.toMatch(/(limit|offset)\s+\$\d/i);
    expect(regular.params).toHaveLength(newcomer.params.length);
    // The regular's three best channels and ten best authors are asked for; the newcomer's lists are all empty slots.
    expect(regular.params).toEqual(
      expect.arrayContaining([CHANNEL_IDS[7], CHANNEL_IDS[6], CHANNEL_IDS[5], 1000, 1009]),
    );
    expect(regular.params).not.toContain(1010);
    expect(newcomer.params.filter((p) => p === null)).toHaveLength(3 + 10 + 0);
  });
});

describe('the works’ facts table', () => {
  it('gives back what was put for each of as many ids as it was made for, the latest put winning, and nothing after clear', () => {
    const table = new FactsTable(10_000);
    const facts = new Int32Array(3);
    // Ids that share their low bits, as a million-video site's do in any small table.
    const ids = Array.from({ length: 10_000 }, (_, i) => (i + 1) * 4_096);
    for (const id of ids) {
      facts.set([id % 9, id + 1, id * 2]);
      table.put(id, facts, 0, id / 2);
    }
    facts.set([7, 7, 7]);
    table.put(ids[5]!, facts, 0, 1);
    expect(table.size).toBe(ids.length);
    const out = new Int32Array(6);
    for (const id of ids.slice(6)) {
      expect(table.read(id, out, 3)).toBe(id / 2);
      expect([...out.subarray(3)]).toEqual([id % 9, id + 1, id * 2]);
    }
    expect(table.read(ids[5]!, out, 0)).toBe(1);
    expect([...out.subarray(0, 3)]).toEqual([7, 7, 7]);
    expect(table.read(3, out, 0)).toBe(-1);
    table.clear();
    expect(table.size).toBe(0);
    expect(ids.some((id) => table.read(id, out, 0) >= 0)).toBe(false);
  });
});
