/**
 * What a page every viewer shares asks GET /api/user/marks for: the videos and people it shows marks on, the series it
 * plays, the profile it is. The browser finds them in the page (src/client/marks.ts); the server finds the same in the
 * HTML it renders and names them on the root element (src/server/http/marks-hint.ts), so a member's call can go out
 * before the page has been read to its end.
 */

/** The ids of the videos and the sec_uids of the people a page shows marks for. */
export interface MarkTargets {
  videos: string[];
  users: string[];
  series?: string;
  visit?: string;
}

/** The root element's attribute that names a page's targets as the query of its marks call. */
export const MARKS_QUERY_ATTR = 'data-marks-q';

/** The marks call's query for `targets` (empty when there is nothing to ask for but the viewer's own state). */
export function marksQuery({ videos, users, series, visit }: MarkTargets): string {
  const query = new URLSearchParams();
  if (videos.length) query.set('videos', videos.join(','));
  if (users.length) query.set('users', users.join(','));
  if (series) query.set('series', series);
  if (visit) query.set('visit', visit);
  return query.toString();
}

/** Whether the call made with `query` answers for every one of `targets`. */
export function coversTargets(query: string, targets: MarkTargets): boolean {
  const asked = new URLSearchParams(query);
  const list = (name: string) => new Set((asked.get(name) ?? '').split(',').filter(Boolean));
  const videos = list('videos');
  const users = list('users');
  return (
    targets.videos.every((v) => videos.has(v)) &&
    targets.users.every((u) => users.has(u)) &&
    (asked.get('series') ?? undefined) === targets.series &&
    (asked.get('visit') ?? undefined) === targets.visit
  );
}
