/**
 * Where the recommend feed's candidates come from: the viewer's signals, a few hundred candidates from index range
 * scans (followed authors' new works, the viewer's own, the top of their affinity channels and authors, fresh works,
 * the popular pool, a share of discovery), and later slices of the popular order. Every candidate query passes
 * `viewerFilter`, the one place a rule about what a viewer never wants to see (不感兴趣, and mutes) applies.
 */
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { db, intLiteral as n, numberPlaceholder, onDbSwitch, queryCompiled } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import type { FeedPool } from '../../shared/feed-reason.ts';
import { notBlockedBy } from './blocks.ts';
import { notMutedWork } from './mutes.ts';
import { RANK, type Candidate, type ViewerSignals } from './feed-ranker.ts';

/** How many candidates each pool gives at most: window 0 holds a few hundred. */
export const POOLS = {
  /** Newest works of followed authors, at most `followPerAuthor` each. */
  follow: 100,
  followPerAuthor: 3,
  own: 5,
  /** The top of the viewer's `affinityChannels` best channels, and the newest of their `affinityAuthors` best authors. */
  affinityChannels: 3,
  affinityPerChannel: 40,
  affinityAuthors: 10,
  affinityPerAuthor: 3,
  fresh: 30,
  popular: 200,
  /** Works from `exploreChannels` channels the viewer seldom watches, from below each channel's top `exploreSkip`. */
  exploreChannels: 2,
  explorePerChannel: 15,
  exploreSkip: 20,
} as const;

/**
 * How much of the viewer's history the signals read: their latest likes, collects, watches and 不感兴趣 marks, and
 * their watches of the last RANK.watchedWithinMs (the ones the ranker sinks).
 */
export const SIGNAL_ROWS = {
  likes: 300,
  collects: 150,
  watches: 300,
  notInterested: 500,
  recentWatches: 1_000,
} as const;

/** The ranking order key of `alias` (an index expression: videos_rank_idx, videos_channel_rank_idx). */
const rankExpr = (alias: string) =>
  `video_rank_score(${alias}.digg_count, ${alias}.comment_count, ${alias}.collect_count, ${alias}.share_count, ${alias}.play_count, ${alias}.created_at)`;
const rankOf = (alias: string) => sql.raw(rankExpr(alias));

/** Works everyone may see, as the ranking indexes' predicate spells it (visibility.ts's anonymous rule). */
const listed = (alias: string) =>
  sql.raw(`${alias}.deleted_at is null and ${alias}.status = 'published' and ${alias}.visibility = 'public'`);

/**
 * What a viewer never wants in the feed, on the works row `row` (an alias with `id` and `author_id`; `videos` by
 * default): what they marked 不感兴趣, the works of authors they blocked (blocks.ts's rule) and what they muted
 * (mutes.ts's rule), so that every pool and every later slice obeys them.
 */
export function viewerFilter(viewerId: number, row = 'videos'): SQL {
  const [id, author] = [sql.raw(`${row}.id`), sql.raw(`${row}.author_id`)];
  return sql`not exists (select 1 from not_interested n where n.user_id = ${viewerId} and n.video_id = ${id})
    and ${notBlockedBy(viewerId, author)}
    and ${notMutedWork(viewerId, row, row === 'videos')}`;
}

/**
 * What the signals need of a work, read by primary key and kept per process: its channel, author and length. A long
 * history's signals name 750 works, and probing each in the signals query was nine tenths of its cost. `max` works
 * take about 30 MB (100 bytes each) and hold what the 400 longest histories of a million-video site name (186,000).
 * A work's author and length never change; its channel, changed in the studio, counts under the old one in a
 * member's affinity for at most `ttlMs`.
 */
export const WORK_FACTS = { max: 300_000, ttlMs: 10 * 60_000 } as const;

type WorkFacts = { channel: number; author: number; durationMs: number; at: number };

// Two generations: a work is looked up in the young one, then the old; when the young one holds half of `max`, it
// becomes the old one and the old one is dropped whole. No entry is deleted one by one: a Map iterated from its start
// after many deletions walks their holes, which cost half a millisecond per feed once the copy was full.
let young = new Map<number, WorkFacts>();
let old = new Map<number, WorkFacts>();
onDbSwitch(() => {
  young = new Map();
  old = new Map();
});

function keep(id: number, facts: WorkFacts): void {
  young.set(id, facts);
  if (young.size >= WORK_FACTS.max / 2) {
    old = young;
    young = new Map();
  }
}

/** The facts of `ids` (a work no longer stored is left out), from the process's copy or, for the rest, in one read. */
async function factsOf(ids: readonly number[], nowMs: number): Promise<Map<number, WorkFacts>> {
  const out = new Map<number, WorkFacts>();
  const missing: number[] = [];
  for (const id of ids) {
    let known = young.get(id);
    if (!known && (known = old.get(id))) keep(id, known);
    if (known && nowMs - known.at < WORK_FACTS.ttlMs) out.set(id, known);
    else missing.push(id);
  }
  if (!missing.length) return out;
  const { rows } = await db().execute<{ id: number; channel_id: number; author_id: number; duration_ms: number }>(
    sql`select id, channel_id, author_id, duration_ms from videos where id = any (${intArray(missing)})`,
  );
  for (const r of rows) {
    const facts = {
      channel: Number(r.channel_id),
      author: Number(r.author_id),
      durationMs: Number(r.duration_ms),
      at: nowMs,
    };
    out.set(Number(r.id), facts);
    keep(Number(r.id), facts);
  }
  return out;
}

/**
 * How much earlier than RANK.watchedWithinMs the signals' read of recent watches starts, by the database's clock: the
 * exact cut is made here with `nowMs`, so an application server whose clock is up to this much behind the database's
 * still gets every watch of the window. The read's bound is a constant of the text (`now()` less a literal), not a
 * parameter: with a parameter there PostgreSQL judged its generic plan dearer than a plan for each value and planned
 * every call afresh (2.1 ms a call at a million videos, 0.95 ms with the one generic plan).
 */
const RECENT_SLACK_MS = 3_600_000;

/** The signals' lists, as viewerSignals reads them. */
interface Lists {
  liked: number[];
  collected: number[];
  watched: number[];
  progress: number[];
  recent: number[];
  recent_at: number[];
  disliked: number[];
}

/** Each list of numbers sent as text joined by commas ('' for none), as numbers. */
function numberLists(row: Record<keyof Lists, string>): Lists {
  const list = (text: string) => (text === '' ? [] : text.split(',').map(Number));
  return {
    liked: list(row.liked),
    collected: list(row.collected),
    watched: list(row.watched),
    progress: list(row.progress),
    recent: list(row.recent),
    recent_at: list(row.recent_at),
    disliked: list(row.disliked),
  };
}

/**
 * The viewer's signals from their latest activity (SIGNAL_ROWS): the works they liked, collected, watched (how far)
 * and marked 不感兴趣, in one round trip, weighed per channel and author with the works' facts (factsOf).
 */
export async function viewerSignals(viewerId: number, nowMs = Date.now()): Promise<ViewerSignals> {
  const since = nowMs - RANK.watchedWithinMs;
  // One row of lists: node-postgres parses one row far faster than as many rows (1,250 for a long history), and a list
  // of numbers sent as text joined by commas faster still than as an array (its array parser, character by character,
  // was a third of this read's time on the process's one thread).
  const { rows } = await db().execute<Record<keyof Lists, string>>(sql`
    select
      array_to_string(array(select video_id from likes where user_id = ${viewerId}
        order by created_at desc limit ${n(SIGNAL_ROWS.likes)}), ',') as liked,
      array_to_string(array(select video_id from collects where user_id = ${viewerId}
        order by created_at desc limit ${n(SIGNAL_ROWS.collects)}), ',') as collected,
      w.ids as watched, w.progress, r.ids as recent, r.at as recent_at,
      array_to_string(array(select video_id from not_interested where user_id = ${viewerId}
        limit ${n(SIGNAL_ROWS.notInterested)}), ',') as disliked
    from (select coalesce(string_agg(video_id::text, ','), '') as ids, coalesce(string_agg(progress_ms::text, ','), '') as progress
        from (select video_id, progress_ms from watch_history where user_id = ${viewerId}
          order by watched_at desc limit ${n(SIGNAL_ROWS.watches)}) x) w,
      (select coalesce(string_agg(video_id::text, ','), '') as ids,
          coalesce(string_agg(((extract(epoch from watched_at) * 1000)::float8)::text, ','), '') as at
        from (select video_id, watched_at from watch_history where user_id = ${viewerId}
          and watched_at > now() - ${n(RANK.watchedWithinMs + RECENT_SLACK_MS)} * interval '1 millisecond'
          order by watched_at desc limit ${n(SIGNAL_ROWS.recentWatches)}) x) r`);
  const got = numberLists(rows[0]!);
  // Per work: the weight of its likes and collects, and how far it was watched.
  const weight = new Map<number, number>();
  const progress = new Map<number, number>();
  const watchedAt = new Map<number, number>();
  got.recent.forEach((id, i) => {
    const at = got.recent_at[i]!;
    if (at > since) watchedAt.set(id, at);
  });
  got.watched.forEach((id, i) => {
    progress.set(id, got.progress[i] ?? 0);
    weight.set(id, 0);
  });
  for (const id of got.liked) weight.set(id, (weight.get(id) ?? 0) + RANK.like);
  for (const id of got.collected) weight.set(id, (weight.get(id) ?? 0) + RANK.collect);
  const disliked = got.disliked;
  const facts = await factsOf([...weight.keys(), ...disliked], nowMs);
  const s: ViewerSignals = {
    channel: new Map(),
    author: new Map(),
    total: 0,
    dislikedAuthor: new Map(),
    dislikedChannel: new Map(),
    watched: watchedAt,
  };
  const add = (m: Map<number, number>, k: number, w: number) => m.set(k, (m.get(k) ?? 0) + w);
  for (const [id, w] of weight) {
    const f = facts.get(id);
    if (!f) continue;
    const watched = progress.has(id) ? Math.min(progress.get(id)! / Math.max(f.durationMs, 1), 1) : 0;
    const total = w + RANK.watch * watched;
    add(s.channel, f.channel, total);
    add(s.author, f.author, total);
  }
  for (const id of disliked) {
    const f = facts.get(id);
    if (!f) continue;
    add(s.dislikedChannel, f.channel, 1);
    add(s.dislikedAuthor, f.author, 1);
  }
  for (const w of s.channel.values()) s.total += w;
  return s;
}

/** The keys of `weights` with the largest values, at most `n`, ties to the lower key. */
function top(weights: Map<number, number>, n: number): number[] {
  return [...weights]
    .filter(([, w]) => w > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, n)
    .map(([k]) => k);
}

/** Channels to explore: the viewer's least watched, rotating by viewer and day among equals. */
function exploreChannels(channels: readonly number[], s: ViewerSignals, viewerId: number, nowMs: number): number[] {
  const day = Math.floor(nowMs / 86_400_000);
  const spin = (c: number) => ((c * 2_654_435_761 + viewerId * 40_503 + day * 97) >>> 0) % 1_000_003;
  return [...channels]
    .sort((a, b) => (s.channel.get(a) ?? 0) - (s.channel.get(b) ?? 0) || spin(a) - spin(b))
    .slice(0, POOLS.exploreChannels);
}

/** What the ranker reads of the viewer about each candidate (`v`: a row with author_id). */
function viewerMarks(viewerId: number, v: SQL): SQL {
  return sql`exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = ${v}.author_id) as followed`;
}

type CandidateRow = {
  id: number;
  pool: FeedPool;
  author_id: number;
  channel_id: number;
  score: number;
  followed: boolean;
};

function toCandidate(r: CandidateRow, viewerId: number, s: ViewerSignals, pool?: FeedPool): Candidate {
  return {
    id: Number(r.id),
    authorId: Number(r.author_id),
    channelId: Number(r.channel_id),
    score: Number(r.score),
    pool: pool ?? r.pool,
    followed: r.followed,
    watchedAt: s.watched.get(Number(r.id)) ?? null,
    own: Number(r.author_id) === viewerId,
  };
}

const intArray = (xs: number[]) => sql`${`{${xs.join(',')}}`}::int[]`;

/**
 * `xs` as an array of exactly `n` parameters, the missing ones null (they match nothing): the planner then knows the
 * list's length without its values, as it knows the pools' sizes (`n` below), which are written into the text.
 * The candidates query can so keep one generic plan per connection: with a list of unknown length, or a parameter
 * as LIMIT, the generic plan looks dearer than the custom one and PostgreSQL plans every call afresh (1.5 to 2.6 ms
 * at a million videos, as long as running it).
 */
const slots = (xs: readonly unknown[], size: number) =>
  sql`array[${sql.join(
    Array.from({ length: size }, (_, i) => sql`${xs[i] ?? null}::int`),
    sql`, `,
  )}]`;

/** What the candidates statement asks for besides the viewer: their best channels and authors, and channels to explore. */
interface CandidateLists {
  channels: readonly unknown[];
  authors: readonly unknown[];
  explore: readonly unknown[];
}

function candidateLists(viewerId: number, s: ViewerSignals, channels: readonly number[], nowMs: number) {
  const topChannels = top(s.channel, POOLS.affinityChannels);
  return {
    channels: topChannels,
    authors: top(s.author, POOLS.affinityAuthors),
    explore: exploreChannels(
      channels.filter((c) => !topChannels.includes(c)),
      s,
      viewerId,
      nowMs,
    ),
  };
}

/** The query of window 0's candidates (gatherCandidates runs it compiled once), apart for the plan checks. */
export function candidatesQuery(
  viewerId: number,
  s: ViewerSignals,
  channels: readonly number[],
  nowMs = Date.now(),
): SQL {
  return candidatesSql(viewerId, candidateLists(viewerId, s, channels, nowMs));
}

/** The candidates statement of `viewer` (a value, or a placeholder for the text compiled once) and their `lists`. */
function candidatesSql(viewerId: number, { channels: topChannels, authors: topAuthors, explore }: CandidateLists): SQL {
  // Each pool reads what the ranker needs with its ids, and only works the viewer may see (the follow pool: a
  // friends-only work when the author follows back), so nothing is read twice. Materialized, so the pools are read once.
  const cols = (v: string) => sql.raw(`${v}.id, ${v}.author_id, ${v}.channel_id, ${rankExpr(v)} as score`);
  return sql`
    with picks (id, author_id, channel_id, score, pool) as materialized (
      (select v.id, v.author_id, v.channel_id, v.score, 'follow' from follows f
        cross join lateral (
          select ${cols('v')}, v.created_at from videos v
          where v.author_id = f.followee_id and v.deleted_at is null and v.status = 'published'
            and (v.visibility = 'public' or v.visibility = 'friends' and exists (
              select 1 from follows b where b.follower_id = f.followee_id and b.followee_id = ${viewerId}))
          order by v.created_at desc, v.id desc limit ${n(POOLS.followPerAuthor)}) v
        where f.follower_id = ${viewerId}
        order by v.created_at desc, v.id desc limit ${n(POOLS.follow)})
      union all
      (select ${cols('v')}, 'own' from videos v
        where v.author_id = ${viewerId} and v.deleted_at is null and v.status = 'published'
        order by v.created_at desc, v.id desc limit ${n(POOLS.own)})
      union all
      select x.*, 'affinity' from unnest(${slots(topChannels, POOLS.affinityChannels)}) c(ch)
        cross join lateral (select ${cols('v')} from videos v where v.channel_id = c.ch and ${listed('v')}
          order by ${rankOf('v')} desc, v.id desc limit ${n(POOLS.affinityPerChannel)}) x
      union all
      select x.*, 'affinity' from unnest(${slots(topAuthors, POOLS.affinityAuthors)}) a(au)
        cross join lateral (select ${cols('v')} from videos v where v.author_id = a.au and ${listed('v')}
          order by v.created_at desc, v.id desc limit ${n(POOLS.affinityPerAuthor)}) x
      union all
      (select ${cols('v')}, 'fresh' from videos v where ${listed('v')}
        order by v.created_at desc, v.id desc limit ${n(POOLS.fresh)})
      union all
      (select ${cols('v')}, 'popular' from videos v where ${listed('v')}
        order by ${rankOf('v')} desc, v.id desc limit ${n(POOLS.popular)})
      union all
      select x.*, 'explore' from unnest(${slots(explore, POOLS.exploreChannels)}) c(ch)
        cross join lateral (select ${cols('v')} from videos v where v.channel_id = c.ch and ${listed('v')}
          order by ${rankOf('v')} desc, v.id desc offset ${n(POOLS.exploreSkip)} limit ${n(POOLS.explorePerChannel)}) x
    )
    select p.pool, p.id, p.author_id, p.channel_id, p.score, ${viewerMarks(viewerId, sql`p`)}
    from picks p
    where ${viewerFilter(viewerId, 'p')}`;
}

const names = (prefix: string, size: number) => Array.from({ length: size }, (_, i) => `${prefix}${i}`);
const LIST_NAMES = {
  channels: names('c', POOLS.affinityChannels),
  authors: names('a', POOLS.affinityAuthors),
  explore: names('e', POOLS.exploreChannels),
};
let compiled: { sql: string; params: unknown[] } | undefined;

/**
 * The candidates statement compiled once, with placeholders for the viewer and their lists: building and compiling
 * its drizzle template cost 1 to 2 ms of the process's one thread per feed, as much as PostgreSQL took to run it.
 */
function compiledCandidates() {
  const ph = (name: string) => sql.placeholder(name);
  return (compiled ??= new PgDialect().sqlToQuery(
    candidatesSql(numberPlaceholder('viewer'), {
      channels: LIST_NAMES.channels.map(ph),
      authors: LIST_NAMES.authors.map(ph),
      explore: LIST_NAMES.explore.map(ph),
    }),
  ));
}

/** Window 0 of a viewer's feed: every pool's candidates (a video may come from several), in one round trip. */
export async function gatherCandidates(
  viewerId: number,
  s: ViewerSignals,
  channels: readonly number[],
  nowMs = Date.now(),
): Promise<Candidate[]> {
  const lists = candidateLists(viewerId, s, channels, nowMs);
  const values: Record<string, unknown> = { viewer: viewerId };
  for (const key of ['channels', 'authors', 'explore'] as const)
    LIST_NAMES[key].forEach((name, i) => (values[name] = lists[key][i] ?? null));
  const { sql: text, params } = compiledCandidates();
  const rows = await queryCompiled<CandidateRow>(text, fillPlaceholders(params, values));
  return rows.map((r) => toCandidate(r, viewerId, s));
}

/** A position in the popular order: its score and id. */
export type RankKey = [score: number, id: number];

/**
 * The next `size` works of the popular order after `after` (from the top when null), leaving out `exclude` (window
 * 0's candidates, already ranked) and what the viewer never wants: a later window of the feed, marked with the
 * viewer's signals `s` (their recent watches).
 */
export async function popularSlice(
  viewerId: number,
  s: ViewerSignals,
  after: RankKey | null,
  size: number,
  exclude: number[],
): Promise<Candidate[]> {
  const { rows } = await db().execute<CandidateRow>(sql`
    select videos.id, videos.author_id, videos.channel_id, ${rankOf('videos')} as score,
      ${viewerMarks(viewerId, sql`videos`)}
    from ${videos}
    where ${listed('videos')}
      ${after ? sql`and (${rankOf('videos')}, ${videos.id}) < (${after[0]}::float8, ${after[1]}::int)` : sql``}
      and ${videos.id} <> all (${intArray(exclude)})
      and ${viewerFilter(viewerId)}
    order by ${rankOf('videos')} desc, ${videos.id} desc
    limit ${size}`);
  return rows.map((r) => toCandidate(r, viewerId, s, 'popular'));
}
