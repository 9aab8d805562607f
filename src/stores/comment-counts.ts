/** Comment counts announced by the comment islands, so the action buttons beside a video follow them. */
import { map } from 'nanostores';
import { COMMENT_COUNT_EVENT, type CommentCountDetail } from '../shared/comment-data.ts';

/** Comment counts announced by the comment islands (COMMENT_COUNT_EVENT), by video id. */
export const $commentCounts = map<Record<string, number>>({});

if (typeof window !== 'undefined') {
  addEventListener(COMMENT_COUNT_EVENT, (e) => {
    const { awemeId, count } = (e as CustomEvent<CommentCountDetail>).detail;
    $commentCounts.setKey(awemeId, count);
  });
}
