/**
 * What a video is found by in search: its title with hashtags, its author's nickname and its captions' lines, as
 * character unigrams and bigrams (search_tokens_of, the SQL twin of search-tokens.ts). Every writer that changes one
 * of those three asks here, so no change can leave a video findable by old words or not by new ones.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/recount.ts';

/** Recomputes search_tokens of the videos `which` selects (their ids, or every video of one author). */
export async function reindexVideoSearch(tx: DbOrTx, which: { ids: number[] } | { authorId: number }): Promise<void> {
  let where: SQL;
  if ('ids' in which) {
    if (which.ids.length === 0) return;
    where = sql`v.id = any(array[${sql.join(
      which.ids.map((id) => sql`${id}::int`),
      sql`, `,
    )}])`;
  } else where = sql`v.author_id = ${which.authorId}`;
  await tx.execute(sql`
    update videos v set search_tokens = search_tokens_of(
      v."desc" || ' ' || u.nickname || coalesce(' ' || (
        select string_agg(e ->> 'text', ' ') from video_captions c, jsonb_array_elements(c.cues) e where c.video_id = v.id
      ), ''))
    from users u where u.id = v.author_id and ${where}`);
}
