/**
 * Every API door that shows a work, against the one visibility rule (services/visibility.ts): a private work is seen by
 * its author alone, a friends-only work by its author and their mutual follows, never by a one-way follower, a stranger
 * or an anonymous visitor. Each door is one row; each row is tried with the work public first (the door does reach
 * it), then friends-only and private, by every kind of viewer. Lists that are the same for everyone (discover,
 * channels, hot, related, search, suggestions, series) never show a hidden work, not even to its author.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clearSuggestCache } from '../../src/server/services/suggest.ts';
import { call, one, responseSchema, tokenFor, useApiDb, type Answer, type CallOptions } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

type LoggedIn = 'author' | 'friend' | 'fan' | 'stranger';
type Who = LoggedIn | 'anonymous';
type Visibility = 'public' | 'friends' | 'private';

const VIEWERS: Who[] = ['author', 'friend', 'fan', 'stranger', 'anonymous'];
const LOGGED_IN: LoggedIn[] = ['author', 'friend', 'fan', 'stranger'];
// A friend follows the author and is followed back; a fan only follows.
const SEES: Record<Visibility, Who[]> = { public: VIEWERS, friends: ['author', 'friend'], private: ['author'] };

/** Words of the work's title and its one hashtag, found nowhere else in the seed. */
const TITLE = '霓虹鲸鱼漫游记';
const TITLE_PREFIX = '霓虹';
const SEARCH_WORD = '鲸鱼漫游';
const TAG = '琥珀灯塔';
const TAG_PREFIX = '琥珀';

const ids: Record<LoggedIn | 'actor', number> = { author: 0, friend: 0, fan: 0, stranger: 0, actor: 0 };
const tokens: Partial<Record<Who, string>> = {};
let work: { id: number; channel_id: number };
let authorSecUid: string;
/** A public video of the same channel, whose related list may hold the work. */
let neighbour: number;
let rootComment: number;
let mixId: number;

beforeAll(async () => {
  const first = await one<{ id: number; channel_id: number; author_id: number; sec_uid: string }>(
    ctx,
    sql`
    select v.id, v.channel_id, v.author_id, u.sec_uid from videos v join users u on u.id = v.author_id
    where v.deleted_at is null and v.status = 'published' and v.visibility = 'public' order by v.id limit 1`,
  );
  work = { id: first.id, channel_id: first.channel_id };
  ids.author = first.author_id;
  authorSecUid = first.sec_uid;
  const others = (
    await ctx.db.execute<{ id: number }>(sql`select id from users where id <> ${ids.author} order by id desc limit 4`)
  ).rows;
  [ids.friend, ids.fan, ids.stranger, ids.actor] = others.map((r) => Number(r.id)) as [number, number, number, number];
  ({ id: neighbour } = await one<{ id: number }>(
    ctx,
    sql`
    select id from videos where channel_id = ${work.channel_id} and id <> ${work.id} and deleted_at is null and status = 'published' and visibility = 'public'
    order by id limit 1`,
  ));
  for (const who of LOGGED_IN) tokens[who] = await tokenFor(ids[who]);

  const cast = Object.values(ids);
  const list = sql.join(
    cast.map((x) => sql`${x}`),
    sql`, `,
  );
  await ctx.db.execute(sql`delete from follows where follower_id in (${list}) and followee_id in (${list})`);
  await ctx.db.execute(sql`delete from blocks where blocker_id in (${list}) or blocked_id in (${list})`);
  await ctx.db.execute(sql`insert into follows (follower_id, followee_id) values
    (${ids.friend}, ${ids.author}), (${ids.author}, ${ids.friend}), (${ids.fan}, ${ids.author})`);
  await ctx.db.execute(
    sql`update users set privacy = '{"likesPublic": true, "collectsPublic": true}'::jsonb where id = ${ids.author}`,
  );

  // The work tops every ranked list (engagement, freshness), so one page of each list decides whether it is there.
  await ctx.db
    .execute(sql`update videos set "desc" = ${`${TITLE} #${TAG}`}, digg_count = 1000000, play_count = 0, created_at = now(), allow_comments = true
    where id = ${work.id}`);
  await ctx.db.execute(sql`delete from video_hashtags where video_id = ${work.id}`);
  await ctx.db.execute(sql`insert into hashtags (name) values (${TAG}) on conflict do nothing`);
  await ctx.db.execute(
    sql`insert into video_hashtags (video_id, hashtag_id) select ${work.id}, id from hashtags where name = ${TAG}`,
  );

  // What each viewer has of the work: a like (the author's own among them), a collect, history, watch later, a notification.
  const viewers = sql.join(
    LOGGED_IN.map((w) => sql`(${ids[w]}::int)`),
    sql`, `,
  );
  await ctx.db.execute(
    sql`insert into likes (user_id, video_id) select v.id, ${work.id} from (values ${viewers}) v(id) on conflict do nothing`,
  );
  await ctx.db.execute(
    sql`insert into collects (user_id, video_id) values (${ids.author}, ${work.id}) on conflict do nothing`,
  );
  await ctx.db
    .execute(sql`insert into watch_history (user_id, video_id, progress_ms) select v.id, ${work.id}, 1000 from (values ${viewers}) v(id)
    on conflict (user_id, video_id) do update set watched_at = now()`);
  await ctx.db.execute(
    sql`insert into watch_later (user_id, video_id) select v.id, ${work.id} from (values ${viewers}) v(id) on conflict do nothing`,
  );
  await ctx.db.execute(sql`insert into notifications (user_id, actor_id, kind, video_id, text)
    select v.id, ${ids.actor}, 'mention', ${work.id}, ${TITLE} from (values ${viewers}) v(id)`);

  // A comment with a reply, and the work as the first episode of a 合集 and of a drama.
  ({ id: rootComment } = await one<{ id: number }>(
    ctx,
    sql`
    insert into comments (video_id, user_id, text, reply_count) values (${work.id}, ${ids.actor}, '第一条', 1) returning id`,
  ));
  await ctx.db.execute(sql`insert into comments (video_id, user_id, parent_id, reply_to_user_id, text)
    values (${work.id}, ${ids.author}, ${rootComment}, ${ids.actor}, '回复')`);
  ({ id: mixId } = await one<{ id: number }>(
    ctx,
    sql`
    insert into series (author_id, kind, title, cover, item_count) values (${ids.author}, 'mix', '合集', 'x.webp', 2) returning id`,
  ));
  const { id: dramaId } = await one<{ id: number }>(
    ctx,
    sql`
    insert into series (author_id, kind, title, cover, item_count) values (${ids.author}, 'theatre', '短剧', 'x.webp', 1) returning id`,
  );
  await ctx.db.execute(sql`insert into series_items (series_id, video_id, position) values
    (${mixId}, ${work.id}, 1), (${mixId}, ${neighbour}, 2), (${dramaId}, ${work.id}, 1)`);
});

/** Calls the API as `who`; a 200 must match the route's response schema. */
async function as(who: Who, method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<Answer> {
  const res = await call(method, `/api${path}`, { ...opts, token: tokens[who] });
  if (res.status === 200) {
    const parsed = responseSchema(method, path).safeParse(res.body);
    if (!parsed.success) throw new Error(`${method} ${path}: ${parsed.error.message}`);
  }
  return res;
}

/**
 * Whether an answer let `who` in: 200 yes; a logged-in-only door refuses an anonymous visitor with 401; a hidden work
 * is refused as not found (404, Family A status_code 4, Family B code '404').
 */
function admitted(who: Who, res: Answer): boolean {
  if (res.status === 200) return true;
  if (who === 'anonymous' && res.status === 401) return false;
  expect(res.status, res.text).toBe(404);
  if (res.body.status_code !== undefined) expect(res.body.status_code).toBe(4);
  else expect(res.body.code).toBe('404');
  return false;
}

/** Whether a list answer holds the work; `pick` reads the ids of its items. */
function holds(who: Who, res: Answer, pick: (body: any) => unknown[]): boolean {
  if (!admitted(who, res)) return false;
  return pick(res.body).map(String).includes(String(work.id));
}

const awemeIds = (body: { aweme_list: { aweme_id: string }[] }) => body.aweme_list.map((a) => a.aweme_id);
const videoIdsB = (body: { data: { id: number }[] }) => body.data.map((v) => v.id);

/** Every page of an offset-paged Family A list, until has_more is 0. */
async function everyPage(
  who: Who,
  path: string,
  query: Record<string, string | number>,
  next: (page: number, count: number) => Record<string, number>,
): Promise<boolean> {
  const count = 50;
  for (let page = 0; page < 40; page++) {
    const res = await as(who, 'GET', path, { query: { ...query, count, ...next(page, count) } });
    if (holds(who, res, awemeIds)) return true;
    if (res.status !== 200 || !res.body.has_more) return false;
  }
  throw new Error(`${path} did not end`);
}

/** One door: how `who` would find the work there, and who it reaches when the work is public. */
interface Door {
  door: string;
  shows: (who: Who) => Promise<boolean>;
  /** Viewers the door shows the public work to (default: everyone). */
  reach?: Who[];
  /** The list is the same for everyone: a hidden work is in it for nobody. */
  forEveryone?: true;
}

/** Sends a write as `who`; true when it was accepted. */
const wrote = async (who: Who, path: string, form: Record<string, string | number>) =>
  admitted(who, await as(who, 'POST', path, { form }));

/** A write door: logged in only. */
const write = (door: string, shows: (who: Who) => Promise<boolean>): Door => ({ door, reach: LOGGED_IN, shows });

const DOORS: Door[] = [
  // Family A reads.
  {
    door: 'A aweme/detail',
    shows: async (who) => admitted(who, await as(who, 'GET', `${W}/aweme/detail/`, { query: { aweme_id: work.id } })),
  },
  {
    door: 'A tab/feed (推荐)',
    shows: async (who) => holds(who, await as(who, 'GET', `${W}/tab/feed/`, { query: { count: 50 } }), awemeIds),
  },
  {
    door: 'A module/feed (首页)',
    forEveryone: true,
    shows: async (who) =>
      holds(who, await as(who, 'GET', `${W}/module/feed/`, { query: { count: 50 } }), (b) =>
        b.cards.map((c: { aweme: string }) => JSON.parse(c.aweme).aweme_id),
      ),
  },
  {
    door: 'A aweme/post (作品)',
    shows: async (who) =>
      holds(
        who,
        await as(who, 'GET', `${W}/aweme/post/`, { query: { sec_user_id: authorSecUid, count: 50 } }),
        awemeIds,
      ),
  },
  {
    door: "A aweme/favorite (the author's own like)",
    shows: async (who) =>
      holds(
        who,
        await as(who, 'GET', `${W}/aweme/favorite/`, { query: { sec_user_id: authorSecUid, count: 50 } }),
        awemeIds,
      ),
  },
  {
    door: "A aweme/listcollection (the author's own collect)",
    shows: async (who) =>
      holds(
        who,
        await as(who, 'GET', `${W}/aweme/listcollection/`, { query: { sec_user_id: authorSecUid, count: 50 } }),
        awemeIds,
      ),
  },
  {
    door: 'A aweme/related (of a video of the same channel)',
    forEveryone: true,
    shows: (who) =>
      everyPage(who, `${W}/aweme/related/`, { aweme_id: neighbour }, (page) => ({ refresh_index: page + 1 })),
  },
  {
    door: 'A aweme/related (of the work itself)',
    shows: async (who) => admitted(who, await as(who, 'GET', `${W}/aweme/related/`, { query: { aweme_id: work.id } })),
  },
  {
    door: 'A general/search/single',
    forEveryone: true,
    shows: async (who) =>
      holds(
        who,
        await as(who, 'GET', `${W}/general/search/single/`, { query: { keyword: SEARCH_WORD, count: 50 } }),
        (b) => b.data.map((d: { aweme_info: { aweme_id: string } }) => d.aweme_info.aweme_id),
      ),
  },
  {
    door: 'A search/sug (hashtag)',
    forEveryone: true,
    shows: async (who) => {
      clearSuggestCache();
      const res = await as(who, 'GET', `${W}/search/sug/`, { query: { keyword: TAG_PREFIX } });
      return admitted(who, res) && res.body.sug_list.some((s: { content: string }) => s.content === TAG);
    },
  },
  {
    door: 'A search/sug (title)',
    forEveryone: true,
    shows: async (who) => {
      const res = await as(who, 'GET', `${W}/search/sug/`, { query: { keyword: TITLE_PREFIX } });
      return admitted(who, res) && res.body.sug_list.some((s: { content: string }) => s.content === TITLE);
    },
  },
  {
    door: 'A api/suggest_words (query)',
    forEveryone: true,
    shows: async (who) => {
      clearSuggestCache();
      const res = await as(who, 'GET', `${W}/api/suggest_words/`, { query: { query: TAG_PREFIX } });
      return admitted(who, res) && res.body.data[0].words.some((w: { word: string }) => w.word === TAG);
    },
  },
  {
    door: "A api/suggest_words (from_group_id: the work's hashtags)",
    shows: async (who) => {
      const res = await as(who, 'GET', `${W}/api/suggest_words/`, { query: { from_group_id: work.id } });
      return admitted(who, res) && res.body.data[0].words.some((w: { word: string }) => w.word === TAG);
    },
  },
  {
    door: 'A comment/list',
    shows: async (who) => admitted(who, await as(who, 'GET', `${W}/comment/list/`, { query: { aweme_id: work.id } })),
  },
  {
    door: 'A comment/list/reply',
    shows: async (who) =>
      admitted(
        who,
        await as(who, 'GET', `${W}/comment/list/reply/`, { query: { item_id: work.id, comment_id: rootComment } }),
      ),
  },
  {
    door: 'A danmaku/list',
    shows: async (who) => admitted(who, await as(who, 'GET', `${W}/danmaku/list/`, { query: { aweme_id: work.id } })),
  },
  {
    door: 'A history/read (own history)',
    reach: LOGGED_IN,
    shows: async (who) => holds(who, await as(who, 'GET', `${W}/history/read/`, { query: { count: 50 } }), awemeIds),
  },
  {
    door: 'A lvideo/query/history (own drama history)',
    reach: LOGGED_IN,
    shows: async (who) =>
      holds(who, await as(who, 'GET', `${W}/lvideo/query/history/`, { query: { count: 50 } }), awemeIds),
  },
  {
    door: 'A mix/aweme',
    forEveryone: true,
    shows: async (who) => holds(who, await as(who, 'GET', `${W}/mix/aweme/`, { query: { mix_id: mixId } }), awemeIds),
  },
  {
    door: 'A mix/detail (first episode)',
    forEveryone: true,
    shows: async (who) => {
      const res = await as(who, 'GET', `${W}/mix/detail/`, { query: { mix_id: mixId } });
      return admitted(who, res) && res.body.mix_info.first_aweme_id === String(work.id);
    },
  },
  {
    door: "A mix/list (the author's, first episode)",
    forEveryone: true,
    shows: async (who) => {
      const res = await as(who, 'GET', `${W}/mix/list/`, { query: { sec_user_id: authorSecUid, count: 50 } });
      return (
        admitted(who, res) &&
        res.body.mix_infos.some((m: { first_aweme_id: string | null }) => m.first_aweme_id === String(work.id))
      );
    },
  },
  {
    door: 'A friend/feed (朋友)',
    reach: ['friend'],
    shows: async (who) => holds(who, await as(who, 'GET', `${W}/friend/feed/`, { query: { count: 50 } }), awemeIds),
  },
  {
    door: 'A channel/feed',
    forEveryone: true,
    shows: async (who) =>
      holds(
        who,
        await as(who, 'GET', `${W}/channel/feed/`, { query: { tag_id: work.channel_id, count: 50 } }),
        awemeIds,
      ),
  },
  {
    door: 'A hot/aweme/list (热点)',
    forEveryone: true,
    shows: (who) => everyPage(who, `${W}/hot/aweme/list/`, {}, (page, count) => ({ cursor: page * count })),
  },
  {
    door: 'A notice (a notification about the work)',
    reach: LOGGED_IN,
    shows: async (who) =>
      holds(who, await as(who, 'GET', `${W}/notice/`, { query: { count: 50 } }), (b) =>
        b.notice_list.flatMap((n: { aweme: { aweme_id: string } | null }) => (n.aweme ? [n.aweme.aweme_id] : [])),
      ),
  },
  // Family A writes: refused as not found.
  write('A commit/item/digg', (who) => wrote(who, `${W}/commit/item/digg/`, { aweme_id: work.id, type: 1 })),
  write('A aweme/collect', (who) => wrote(who, `${W}/aweme/collect/`, { aweme_id: work.id, action: 1 })),
  write('A comment/publish', (who) => wrote(who, `${W}/comment/publish`, { aweme_id: work.id, text: '看到了' })),
  write('A comment/publish (a reply)', (who) =>
    wrote(who, `${W}/comment/publish`, { aweme_id: work.id, text: '也看到了', reply_id: rootComment }),
  ),
  write('A comment/digg', (who) => wrote(who, `${W}/comment/digg`, { cid: rootComment, digg_type: 1 })),
  write('A comment/digg (with aweme_id)', (who) =>
    wrote(who, `${W}/comment/digg`, { cid: rootComment, aweme_id: work.id, digg_type: 1 }),
  ),
  write('A aweme/share', (who) => wrote(who, `${W}/aweme/share/`, { aweme_id: work.id })),
  write('A danmaku/send', (who) => wrote(who, `${W}/danmaku/send/`, { aweme_id: work.id, text: '弹幕', offset_ms: 0 })),
  write('A aweme/watchlater/add', (who) => wrote(who, `${W}/aweme/watchlater/add/`, { aweme_id: work.id })),
  write('A history/write', (who) => wrote(who, `${W}/history/write/`, { aweme_id: work.id, progress: 500 })),
  write('A commit/dislike/item', async (who) => {
    const done = await wrote(who, `${W}/commit/dislike/item/`, { aweme_id: work.id });
    // Undone at once: 不感兴趣 would take the work out of this viewer's 推荐 for the other rows.
    await ctx.db.execute(sql`delete from not_interested where video_id = ${work.id}`);
    return done;
  }),
  // Family B.
  {
    door: 'B video/getVideoInfoById',
    shows: async (who) =>
      admitted(who, await as(who, 'POST', '/video/getVideoInfoById', { form: { videoId: work.id } })),
  },
  ...(['post', 'like', 'favorite_collection'] as const).map((showTab): Door => ({
    door: `B video/self showTab=${showTab} of the author`,
    shows: async (who) => {
      const res = await as(who, 'GET', '/video/self', { query: { showTab, userId: ids.author, size: 50 } });
      return admitted(who, res) && res.body.data.videosList.some((v: { id: number }) => v.id === work.id);
    },
  })),
  ...(['record', 'watch_later'] as const).map((showTab): Door => ({
    door: `B video/self showTab=${showTab} (own)`,
    reach: LOGGED_IN,
    shows: async (who) => {
      const res = await as(who, 'GET', '/video/self', { query: { showTab, size: 50 } });
      return admitted(who, res) && res.body.data.videosList.some((v: { id: number }) => v.id === work.id);
    },
  })),
  {
    door: 'B video/myAttentionVideos (关注)',
    reach: ['friend', 'fan'],
    shows: async (who) =>
      holds(who, await as(who, 'POST', '/video/myAttentionVideos', { form: { size: 50 } }), videoIdsB),
  },
  {
    door: 'B video/myLikeVideos (own likes)',
    reach: LOGGED_IN,
    shows: async (who) => holds(who, await as(who, 'POST', '/video/myLikeVideos', { form: { size: 50 } }), videoIdsB),
  },
  {
    door: 'B video/myVideos (own works)',
    reach: ['author'],
    shows: async (who) => holds(who, await as(who, 'POST', '/video/myVideos', { form: { size: 50 } }), videoIdsB),
  },
  {
    door: 'B video/getVideosByCursor (首页)',
    forEveryone: true,
    shows: async (who) =>
      holds(who, await as(who, 'POST', '/video/getVideosByCursor', { form: { size: 50 } }), videoIdsB),
  },
  {
    door: 'B video/feed (推荐)',
    shows: async (who) => holds(who, await as(who, 'POST', '/video/feed', { form: { size: 50 } }), videoIdsB),
  },
  {
    door: 'B comment/list',
    shows: async (who) => admitted(who, await as(who, 'POST', '/comment/list', { form: { vid: work.id } })),
  },
];

const CASES = (['public', 'friends', 'private'] as const).flatMap((visibility) =>
  VIEWERS.map((who) => ({ visibility, who })),
);

describe.each(DOORS)('$door', ({ shows, reach = VIEWERS, forEveryone }) => {
  it.each(CASES)('a $visibility work, to the $who', async ({ visibility, who }) => {
    await ctx.db.execute(sql`update videos set visibility = ${visibility} where id = ${work.id}`);
    const sees = forEveryone ? visibility === 'public' : SEES[visibility].includes(who);
    expect(await shows(who)).toBe(reach.includes(who) && sees);
  });
});
