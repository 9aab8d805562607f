import { describe, expect, it } from 'vitest';
import { spreadAuthors } from './author-spread.ts';

const row = (id: number, author: number) => ({ id, author: { id: author } });
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const byAuthor = (r: { author: { id: number } }) => r.author.id;

describe('spreadAuthors', () => {
  it('keeps the ranked order but splits runs of one author (a server page)', () => {
    expect(ids(spreadAuthors([row(1, 1), row(2, 1), row(3, 2), row(4, 3)], byAuthor))).toEqual([1, 3, 2, 4]);
    expect(ids(spreadAuthors([row(1, 1), row(2, 1)], byAuthor))).toEqual([1, 2]);
    expect(spreadAuthors([], byAuthor)).toEqual([]);
  });

  it('does not leave a tail of one author when an earlier choice avoids it', () => {
    expect(ids(spreadAuthors([row(1, 2), row(2, 1), row(3, 1)], byAuthor))).toEqual([2, 1, 3]);
    expect(ids(spreadAuthors([row(1, 1), row(2, 2), row(3, 3), row(4, 3)], byAuthor))).toEqual([1, 3, 2, 4]);
    expect(ids(spreadAuthors([row(2, 2), row(3, 3), row(4, 3)], byAuthor, [row(1, 1)]))).toEqual([1, 3, 2, 4]);
  });

  it('counts the seam with the list already shown (a page joined in the browser)', () => {
    const shown = [row(1, 1), row(2, 2)];
    expect(ids(spreadAuthors([row(3, 2), row(4, 2), row(5, 3)], byAuthor, shown))).toEqual([1, 2, 5, 3, 4]);
    expect(ids(spreadAuthors([row(2, 1)], byAuthor, [row(1, 1)]))).toEqual([1, 2]);
    expect(ids(spreadAuthors([row(1, 1)], byAuthor, []))).toEqual([1]);
  });

  it('leaves its inputs alone', () => {
    const shown = [row(1, 1)];
    const page = [row(2, 1), row(3, 2)];
    spreadAuthors(page, byAuthor, shown);
    expect(ids(shown)).toEqual([1]);
    expect(ids(page)).toEqual([2, 3]);
  });
});
