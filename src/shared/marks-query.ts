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

/** What a page's JSON block says of a video it shows (src/shared/video-item.ts). */
interface Shown {
  id?: string | number;
  author?: { secUid?: string };
}

/** Where a page names its targets, as the browser and the server each read them from it. */
export interface TargetSources {
  /** The text of each JSON block marked `data-marks` (its `items` or `item`, each with its author). */
  blocks: Iterable<string>;
  /** Each element marked `data-mark`: its `data-video` and `data-user` lists. */
  marked: Iterable<{ video?: string; user?: string }>;
  /** The page's `data-marks-series` and `data-marks-visit`. */
  series?: string;
  visit?: string;
}

/** The targets a page names, in the order it names them, each once. */
export function targetsFrom({ blocks, marked, series, visit }: TargetSources): MarkTargets {
  const videos = new Set<string>();
  const users = new Set<string>();
  const list = (value: string | undefined, into: Set<string>) => {
    for (const v of (value ?? '').split(',')) if (v.trim()) into.add(v.trim());
  };
  for (const text of blocks) {
    try {
      const data = JSON.parse(text || 'null') as { items?: Shown[]; item?: Shown } | null;
      for (const v of [...(data?.items ?? []), ...(data?.item ? [data.item] : [])]) {
        if (v.id !== undefined) videos.add(String(v.id));
        if (v.author?.secUid) users.add(v.author.secUid);
      }
    } catch {
      // Not ours to judge: a block that does not parse names nothing.
    }
  }
  for (const el of marked) {
    list(el.video, videos);
    list(el.user, users);
  }
  return { videos: [...videos], users: [...users], ...(series ? { series } : {}), ...(visit ? { visit } : {}) };
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
