/** Recomputes every counter column from the rows behind it (the seed's last step; also a repair tool and the tests' oracle). */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './types.ts';

// What each counter counts (services keep them equal in the same transaction as the row):
//   users.following_count  follows with follower_id = user
//   users.follower_count   follows with followee_id = user
//   users.aweme_count      the user's published videos, not deleted
//   users.total_favorited  likes on the user's videos, not deleted
//   users.favoriting_count likes given by the user, on videos not deleted
//   users.collect_count    collects by the user, on videos not deleted
//   videos.digg_count / collect_count  likes / collects of the video
//   videos.comment_count   comments on the video, replies included, not deleted
//   comments.digg_count    comment_likes;  comments.reply_count  replies (parent_id), not deleted
//   series.item_count      series_items
//   videos.play_count is raised to at least digg_count; share_count is left as is.
const STATEMENTS = [
  sql`UPDATE users u SET
        following_count = coalesce(fo.n, 0),
        follower_count = coalesce(fe.n, 0),
        aweme_count = coalesce(aw.n, 0),
        total_favorited = coalesce(tf.n, 0),
        favoriting_count = coalesce(fg.n, 0),
        collect_count = coalesce(co.n, 0)
      FROM users x
      LEFT JOIN (SELECT follower_id AS id, count(*)::int AS n FROM follows GROUP BY follower_id) fo ON fo.id = x.id
      LEFT JOIN (SELECT followee_id AS id, count(*)::int AS n FROM follows GROUP BY followee_id) fe ON fe.id = x.id
      LEFT JOIN (SELECT author_id AS id, count(*)::int AS n FROM videos WHERE deleted_at IS NULL AND status = 'published' GROUP BY author_id) aw ON aw.id = x.id
      LEFT JOIN (SELECT v.author_id AS id, count(*)::int AS n FROM likes l JOIN videos v ON v.id = l.video_id
                 WHERE v.deleted_at IS NULL GROUP BY v.author_id) tf ON tf.id = x.id
      LEFT JOIN (SELECT l.user_id AS id, count(*)::int AS n FROM likes l JOIN videos v ON v.id = l.video_id
                 WHERE v.deleted_at IS NULL GROUP BY l.user_id) fg ON fg.id = x.id
      LEFT JOIN (SELECT c.user_id AS id, count(*)::int AS n FROM collects c JOIN videos v ON v.id = c.video_id
                 WHERE v.deleted_at IS NULL GROUP BY c.user_id) co ON co.id = x.id
      WHERE u.id = x.id
        AND (u.following_count, u.follower_count, u.aweme_count, u.total_favorited, u.favoriting_count, u.collect_count)
          IS DISTINCT FROM (coalesce(fo.n, 0), coalesce(fe.n, 0), coalesce(aw.n, 0), coalesce(tf.n, 0), coalesce(fg.n, 0), coalesce(co.n, 0))`,
  sql`UPDATE videos v SET
        digg_count = coalesce(li.n, 0),
        collect_count = coalesce(co.n, 0),
        comment_count = coalesce(cm.n, 0),
        play_count = greatest(v.play_count, coalesce(li.n, 0))
      FROM videos x
      LEFT JOIN (SELECT video_id AS id, count(*)::int AS n FROM likes GROUP BY video_id) li ON li.id = x.id
      LEFT JOIN (SELECT video_id AS id, count(*)::int AS n FROM collects GROUP BY video_id) co ON co.id = x.id
      LEFT JOIN (SELECT video_id AS id, count(*)::int AS n FROM comments WHERE deleted_at IS NULL GROUP BY video_id) cm ON cm.id = x.id
      WHERE v.id = x.id
        AND (v.digg_count, v.collect_count, v.comment_count, v.play_count)
          IS DISTINCT FROM (coalesce(li.n, 0), coalesce(co.n, 0), coalesce(cm.n, 0), greatest(v.play_count, coalesce(li.n, 0)))`,
  sql`UPDATE comments c SET
        digg_count = coalesce(li.n, 0),
        reply_count = coalesce(re.n, 0)
      FROM comments x
      LEFT JOIN (SELECT comment_id AS id, count(*)::int AS n FROM comment_likes GROUP BY comment_id) li ON li.id = x.id
      LEFT JOIN (SELECT parent_id AS id, count(*)::int AS n FROM comments WHERE parent_id IS NOT NULL AND deleted_at IS NULL
                 GROUP BY parent_id) re ON re.id = x.id
      WHERE c.id = x.id AND (c.digg_count, c.reply_count) IS DISTINCT FROM (coalesce(li.n, 0), coalesce(re.n, 0))`,
  sql`UPDATE series s SET item_count = coalesce(it.n, 0)
      FROM series x
      LEFT JOIN (SELECT series_id AS id, count(*)::int AS n FROM series_items GROUP BY series_id) it ON it.id = x.id
      WHERE s.id = x.id AND s.item_count IS DISTINCT FROM coalesce(it.n, 0)`,
];

/** Sets every counter column from the rows behind it, writing only the rows that differ. */
export async function recountAll(db: DbOrTx): Promise<void> {
  for (const statement of STATEMENTS) await db.execute(statement);
}
