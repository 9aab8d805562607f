import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { CHANNEL_IDS } from './channel-ids.ts';
import { candidatesQuery } from './feed-candidates.ts';
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
