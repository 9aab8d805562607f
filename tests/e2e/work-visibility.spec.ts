/**
 * The pages, rendered by the built server, against the one visibility rule: a private work is seen by its author alone,
 * a friends-only work by its author and their mutual follows, never by a one-way follower, a stranger or an anonymous
 * visitor. Each page is one row; a page shows the work when its title is anywhere in the HTML (cards, island props,
 * the document title). The work is public last, as the control that each page does reach it, then deleted; pages that
 * are the same for everyone (discover, channels, hot, search) show a hidden work to nobody, not even its author.
 */
import pg from 'pg';
import { expect, test, e2eDatabaseUrl, newAccount, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

type Who = 'author' | 'friend' | 'fan' | 'stranger' | 'anonymous';
type Visibility = 'public' | 'friends' | 'private';

const VIEWERS: Who[] = ['author', 'friend', 'fan', 'stranger', 'anonymous'];
const SEES: Record<Visibility, Who[]> = { public: VIEWERS, friends: ['author', 'friend'], private: ['author'] };
// Letters and digits continue a Chinese run, so the title stays unique and still found by 鲸鱼漫游.
const TITLE = `霓虹鲸鱼漫游记${Date.now().toString(36)}`;
const KEYWORD = '鲸鱼漫游';
/** Comments that put the work on top of 热点 while it is public (each counts twice the heat of a like). */
const HEAT_COMMENTS = 300;

let db: pg.Client;
let baseURL: string;
const people: Partial<Record<Exclude<Who, 'anonymous'>, Session>> = {};
let work: { id: number; channel_id: number };

test.beforeAll(async ({ playwright }, info) => {
  baseURL = info.project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL });
  for (const who of ['author', 'friend', 'fan', 'stranger'] as const) people[who] = await newAccount(api, `vis-${who}`);
  const follow = async (from: Session, to: Session) => {
    const res = await api.post('/api/aweme/v1/web/commit/follow/user/', {
      headers: { token: from.token },
      form: { sec_user_id: to.user.sec_uid, type: 1 },
    });
    expect(res.status()).toBe(200);
  };
  await follow(people.friend!, people.author!);
  await follow(people.author!, people.friend!);
  await follow(people.fan!, people.author!);
  await api.dispose();

  const url = e2eDatabaseUrl();
  expect(url, 'the e2e server runs on its embedded PostgreSQL').toBeTruthy();
  db = new pg.Client({ connectionString: url! });
  await db.connect();
  // A copy of a seeded work, by the new author, friends-only from the start. Shares (no rows behind that counter) rank
  // it first by engagement; the stranger's comments, first by heat.
  const { rows } = await db.query(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, share_count, comment_count, visibility)
     select $1, channel_id, $2, media, poster, duration_ms, width, height, size_bytes, 100000, $3, 'friends'
     from videos where deleted_at is null and status = 'published' order by id limit 1
     returning id, channel_id`,
    [Number(people.author!.user.uid), TITLE, HEAT_COMMENTS],
  );
  work = rows[0];
  await db.query(
    `insert into comments (video_id, user_id, text) select $1, $2, '好看' from generate_series(1, $3::int)`,
    [work.id, Number(people.stranger!.user.uid), HEAT_COMMENTS],
  );
});

test.afterAll(async () => {
  if (work) await db.query(`update videos set deleted_at = now() where id = $1`, [work.id]);
  await db?.end();
});

/** The HTML of `path` as `who` sees it (the session token in the header, as the middleware reads it; no cookie jar). */
async function render(who: Who, path: string): Promise<{ status: number; html: string }> {
  const token = who === 'anonymous' ? undefined : people[who]!.token;
  const res = await fetch(`${baseURL}${path}`, { headers: token ? { token } : {} });
  return { status: res.status, html: await res.text() };
}

async function titled(who: Who, path: string): Promise<boolean> {
  const { status, html } = await render(who, path);
  expect(status, `${path} as ${who}`).toBe(200);
  return html.includes(TITLE);
}

interface PageDoor {
  page: string;
  shows: (who: Who) => Promise<boolean>;
  /** Viewers the page shows the public work to (default: everyone). */
  reach?: Who[];
  /** The page is the same for everyone: a hidden work is on it for nobody. */
  forEveryone?: true;
}

const PAGES: PageDoor[] = [
  {
    page: '/video/<id> (a 404 page for those who may not see it)',
    shows: async (who) => {
      const { status, html } = await render(who, `/video/${work.id}`);
      expect(status === 200, `status ${status}`).toBe(html.includes(TITLE));
      if (status !== 200) expect(status).toBe(404);
      return status === 200;
    },
  },
  // Pages of public content are one HTML for every viewer, members too: a hidden work is on them for nobody (a member
  // meets it through the API, as the feed and the profile grid page on: tests/api/work-doors.test.ts).
  { page: '/ (推荐)', forEveryone: true, shows: (who) => titled(who, '/') },
  {
    page: "/user/<sec_uid> (the author's 作品)",
    forEveryone: true,
    shows: (who) => titled(who, `/user/${people.author!.user.sec_uid}`),
  },
  { page: '/user/self (作品)', reach: ['author'], shows: (who) => titled(who, '/user/self') },
  {
    page: '/search/<keyword>',
    forEveryone: true,
    shows: (who) => titled(who, `/search/${encodeURIComponent(KEYWORD)}`),
  },
  {
    page: '/search?q=',
    forEveryone: true,
    shows: (who) => titled(who, `/search?q=${encodeURIComponent(KEYWORD)}&type=video`),
  },
  { page: '/channel/<id>', forEveryone: true, shows: (who) => titled(who, `/channel/${work.channel_id}`) },
  { page: '/follow (关注)', reach: ['friend', 'fan'], shows: (who) => titled(who, '/follow') },
  { page: '/friend (朋友)', reach: ['friend'], shows: (who) => titled(who, '/friend') },
  { page: '/hot (热点)', forEveryone: true, shows: (who) => titled(who, '/hot') },
  { page: '/discover (首页)', forEveryone: true, shows: (who) => titled(who, '/discover') },
];

// Hidden first, public last: the work sits on top of the shared lists only for the control.
for (const visibility of ['friends', 'private', 'public'] as const) {
  test.describe(`a ${visibility} work`, () => {
    test.beforeAll(async ({ playwright }) => {
      // Through the studio, as its author would: the write also tells the shared page and API caches that what visitors
      // see has changed (an update behind the server's back left a visitor the cached 404 for seconds).
      const api = await playwright.request.newContext({ baseURL });
      const res = await api.post('/api/studio/work/edit', {
        headers: { token: people.author!.token },
        form: { workId: String(work.id), visibility },
      });
      expect(res.status()).toBe(200);
      expect((await res.json()).code).toBe('200');
      await api.dispose();
    });

    for (const { page, shows, reach = VIEWERS, forEveryone } of PAGES) {
      test(page, async () => {
        // A page every viewer shares may be as old as its stated freshness: the work turned public waits for a new copy.
        if (forEveryone && visibility === 'public')
          await expect.poll(() => shows('anonymous'), { timeout: 20_000 }).toBe(true);
        // A member's own 关注, 朋友 and 作品 pages are kept for them until a second after anyone else's write: each viewer's
        // page gets that long (and more, on a loaded machine) to follow the author's change.
        for (const who of VIEWERS) {
          const sees = forEveryone ? visibility === 'public' : SEES[visibility].includes(who);
          await expect.poll(() => shows(who), { message: who, timeout: 5_000 }).toBe(reach.includes(who) && sees);
        }
      });
    }
  });
}
