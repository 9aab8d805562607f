/**
 * Where the recommend feed's candidates come from: the viewer's signals, a few hundred candidates from index range
 * scans (followed authors' new works, the viewer's own, the top of their affinity channels and authors, fresh works,
 * the popular pool, a share of discovery), and later slices of the popular order. The pools that are the same for
 * every viewer are read once a second per process (sharedPools). Every candidate passes `viewerFilter`, the one place
 * a rule about what a viewer never wants to see (不感兴趣, blocks and mutes) applies. The reads made for one viewer run
 * on the feed's own small pool (feedDb).
 */
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { db, feedDb, intLiteral as n, numberPlaceholder, onDbSwitch, queryCompiled } from '../db/client.ts';
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
 * take about 12 MB (FactsTable) and hold what the 400 longest histories of a million-video site name (186,000).
 * A work's author and length never change; its channel, changed in the studio, counts under the old one in a
 * member's affinity for at most `ttlMs`.
 */
export const WORK_FACTS = { max: 300_000, ttlMs: 10 * 60_000 } as const;

/**
 * Works' facts by id in typed arrays (open addressing, linear probing; an entry is overwritten, never deleted): a feed
 * whose member was not seen before adds 600-odd works, and as a Map of objects their insertion and the collection of
 * the objects were a quarter of the process's time per feed at 20 callers.
 */
export class FactsTable {
  readonly #mask: number;
  readonly #shift: number;
  readonly #ids: Int32Array;
  /** Channel, author and length (ms) of the work in each slot. */
  readonly #facts: Int32Array;
  readonly #at: Float64Array;
  size = 0;

  /** Room for `entries` works at most, in slots of a power of two at most 60 % full. */
  constructor(entries: number) {
    const bits = Math.ceil(Math.log2(entries / 0.6));
    const slots = 2 ** bits;
    this.#mask = slots - 1;
    this.#shift = 32 - bits;
    this.#ids = new Int32Array(slots);
    this.#facts = new Int32Array(slots * 3);
    this.#at = new Float64Array(slots);
  }

  /** The slot holding `id`, or the empty one where it would go. Ids are positive: 0 marks an empty slot. */
  #slot(id: number): number {
    // Fibonacci hashing: the product's high bits.
    let i = Math.imul(id, 0x9e3779b1) >>> this.#shift;
    while (this.#ids[i] !== 0 && this.#ids[i] !== id) i = (i + 1) & this.#mask;
    return i;
  }

  /** Copies the facts of `id` to out[o..o+2] and returns when they were read (ms), or -1 when it holds none. */
  read(id: number, out: Int32Array, o: number): number {
    const i = this.#slot(id);
    if (this.#ids[i] !== id) return -1;
    out[o] = this.#facts[i * 3]!;
    out[o + 1] = this.#facts[i * 3 + 1]!;
    out[o + 2] = this.#facts[i * 3 + 2]!;
    return this.#at[i]!;
  }

  /** Empties the table, keeping its arrays: the slots' other arrays are written before they are read again. */
  clear(): this {
    this.#ids.fill(0);
    this.size = 0;
    return this;
  }

  put(id: number, facts: Int32Array, o: number, at: number): void {
    const i = this.#slot(id);
    if (this.#ids[i] !== id) {
      this.#ids[i] = id;
      this.size += 1;
    }
    this.#facts.set(facts.subarray(o, o + 3), i * 3);
    this.#at[i] = at;
  }
}

// Two generations: a work is looked up in the young one, then the old; when the young one holds half of `max`, it
// becomes the old one and the old one is emptied to be the young one (new arrays each time were 3 % of the process's
// time at 20 callers).
let young = new FactsTable(WORK_FACTS.max / 2);
let old = new FactsTable(WORK_FACTS.max / 2);
onDbSwitch(() => {
  young = new FactsTable(WORK_FACTS.max / 2);
  old = new FactsTable(WORK_FACTS.max / 2);
});

function keep(id: number, facts: Int32Array, o: number, at: number): void {
  young.put(id, facts, o, at);
  if (young.size >= WORK_FACTS.max / 2) [old, young] = [young, old.clear()];
}

/** Where factsOf puts each work's facts: out[k * FACT + FOUND] is 1 when the k-th id is a stored work. */
const FACT = 4;
const [CHANNEL, AUTHOR, DURATION, FOUND] = [0, 1, 2, 3];

/**
 * The facts of `ids` (channel, author, length, found: FACT numbers per id, in their order; a work no longer stored is
 * not found), from the process's copy or, for the rest, in one read.
 */
async function factsOf(ids: readonly number[], nowMs: number): Promise<Int32Array> {
  const out = new Int32Array(ids.length * FACT);
  const missing: number[] = [];
  // Where each missing id's facts go (an id may come twice: a work liked and later marked 不感兴趣).
  const slotsOf = new Map<number, number[]>();
  ids.forEach((id, k) => {
    const o = k * FACT;
    let at = young.read(id, out, o);
    if (at < 0 && (at = old.read(id, out, o)) >= 0) keep(id, out, o, at);
    if (at >= 0 && nowMs - at < WORK_FACTS.ttlMs) out[o + FOUND] = 1;
    else {
      const slots = slotsOf.get(id);
      if (slots) slots.push(o);
      else {
        missing.push(id);
        slotsOf.set(id, [o]);
      }
    }
  });
  if (!missing.length) return out;
  // Four lists of numbers, aligned (one scan feeds the four aggregates in the same order), as text: one row parses far
  // faster than 600.
  const { rows } = await feedDb().execute<{ id: string | null; ch: string; au: string; dur: string }>(
    sql`select string_agg(id::text, ',') as id, string_agg(channel_id::text, ',') as ch,
      string_agg(author_id::text, ',') as au, string_agg(duration_ms::text, ',') as dur
    from videos where id = any (${intArray(missing)})`,
  );
  const [found, ch, au, dur] = [rows[0]?.id, rows[0]?.ch, rows[0]?.au, rows[0]?.dur].map(numbers);
  found!.forEach((id, k) => {
    const slots = slotsOf.get(id)!;
    for (const o of slots) {
      out[o + CHANNEL] = ch![k]!;
      out[o + AUTHOR] = au![k]!;
      out[o + DURATION] = dur![k]!;
      out[o + FOUND] = 1;
    }
    keep(id, out, slots[0]!, nowMs);
  });
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

/** The signals' row: its lists, and whether the viewer blocks or mutes anyone. */
type SignalsRow = Record<keyof Lists, string> & { screens: boolean };

/** A list of numbers sent as text joined by commas ('' or null for none), as numbers. */
const numbers = (text: string | null | undefined): number[] => (text ? text.split(',').map(Number) : []);

/** Each list of the signals' row, as numbers. */
function numberLists(row: Record<keyof Lists, string>): Lists {
  return {
    liked: numbers(row.liked),
    collected: numbers(row.collected),
    watched: numbers(row.watched),
    progress: numbers(row.progress),
    recent: numbers(row.recent),
    recent_at: numbers(row.recent_at),
    disliked: numbers(row.disliked),
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
  const { rows } = await feedDb().execute<SignalsRow>(sql`
    select
      array_to_string(array(select video_id from likes where user_id = ${viewerId}
        order by created_at desc limit ${n(SIGNAL_ROWS.likes)}), ',') as liked,
      array_to_string(array(select video_id from collects where user_id = ${viewerId}
        order by created_at desc limit ${n(SIGNAL_ROWS.collects)}), ',') as collected,
      w.ids as watched, w.progress, r.ids as recent, r.at as recent_at,
      array_to_string(array(select video_id from not_interested where user_id = ${viewerId}
        limit ${n(SIGNAL_ROWS.notInterested)}), ',') as disliked,
      exists (select 1 from blocks where blocker_id = ${viewerId})
        or exists (select 1 from mutes where user_id = ${viewerId}) as screens
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
  const ids = [...weight.keys(), ...disliked];
  const facts = await factsOf(ids, nowMs);
  const s: ViewerSignals = {
    channel: new Map(),
    author: new Map(),
    total: 0,
    dislikedAuthor: new Map(),
    dislikedChannel: new Map(),
    watched: watchedAt,
  };
  if (!rows[0]!.screens && disliked.length < SIGNAL_ROWS.notInterested) s.onlyDisliked = new Set(disliked);
  const add = (m: Map<number, number>, k: number, w: number) => m.set(k, (m.get(k) ?? 0) + w);
  let k = 0;
  for (const [id, w] of weight) {
    const o = k++ * FACT;
    if (!facts[o + FOUND]) continue;
    const watched = progress.has(id) ? Math.min(progress.get(id)! / Math.max(facts[o + DURATION]!, 1), 1) : 0;
    const total = w + RANK.watch * watched;
    add(s.channel, facts[o + CHANNEL]!, total);
    add(s.author, facts[o + AUTHOR]!, total);
  }
  for (; k < ids.length; k++) {
    const o = k * FACT;
    if (!facts[o + FOUND]) continue;
    add(s.dislikedChannel, facts[o + CHANNEL]!, 1);
    add(s.dislikedAuthor, facts[o + AUTHOR]!, 1);
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

/** A candidate as the pools hold it, before the viewer's marks. */
interface PoolRow {
  id: number;
  authorId: number;
  channelId: number;
  score: number;
}

/** A work of `pool` as the ranker takes it, with the viewer's marks: followed, watched lately, their own. */
function candidate(r: PoolRow, pool: FeedPool, followed: boolean, viewerId: number, s: ViewerSignals): Candidate {
  return { ...r, pool, followed, watchedAt: s.watched.get(r.id) ?? null, own: r.authorId === viewerId };
}

const poolRow = (r: Pick<CandidateRow, 'id' | 'author_id' | 'channel_id' | 'score'>): PoolRow => ({
  id: Number(r.id),
  authorId: Number(r.author_id),
  channelId: Number(r.channel_id),
  score: Number(r.score),
});

function toCandidate(r: CandidateRow, viewerId: number, s: ViewerSignals, pool?: FeedPool): Candidate {
  return candidate(poolRow(r), pool ?? r.pool, r.followed, viewerId, s);
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

/** Window 0's candidates of a viewer as one query, every pool read for them: what gatherCandidates finds, by definition. */
export function candidatesQuery(
  viewerId: number,
  s: ViewerSignals,
  channels: readonly number[],
  nowMs = Date.now(),
): SQL {
  return candidatesSql(viewerId, candidateLists(viewerId, s, channels, nowMs));
}

/** A candidate's columns, as every pool reads them from the works row `v`. */
const cols = (v: string) => sql.raw(`${v}.id, ${v}.author_id, ${v}.channel_id, ${rankExpr(v)} as score`);

/** The pools of the viewer's own (followed authors' new works, their own, their best authors'), as `union all` arms. */
function ownPoolsSql(viewerId: number, topAuthors: readonly unknown[]): SQL {
  return sql`
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
      select x.*, 'affinity' from unnest(${slots(topAuthors, POOLS.affinityAuthors)}) a(au)
        cross join lateral (select ${cols('v')} from videos v where v.author_id = a.au and ${listed('v')}
          order by v.created_at desc, v.id desc limit ${n(POOLS.affinityPerAuthor)}) x`;
}

/**
 * Window 0's candidates of `viewer` and their `lists` in one statement, every pool read for this viewer: the definition
 * that gatherCandidates meets with the shared pools read once per process (sharedPools).
 */
function candidatesSql(viewerId: number, { channels: topChannels, authors: topAuthors, explore }: CandidateLists): SQL {
  // Each pool reads what the ranker needs with its ids, and only works the viewer may see (the follow pool: a
  // friends-only work when the author follows back), so nothing is read twice. Materialized, so the pools are read once.
  return sql`
    with picks (id, author_id, channel_id, score, pool) as materialized (
      ${ownPoolsSql(viewerId, topAuthors)}
      union all
      select x.*, 'affinity' from unnest(${slots(topChannels, POOLS.affinityChannels)}) c(ch)
        cross join lateral (select ${cols('v')} from videos v where v.channel_id = c.ch and ${listed('v')}
          order by ${rankOf('v')} desc, v.id desc limit ${n(POOLS.affinityPerChannel)}) x
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

/**
 * The viewer's statement beside the shared pools: their own pools' candidates (what they may see), then one row with
 * two lists, of the shared candidates `shared` (ids, and their `authors`, as int arrays): those the viewer may see
 * (`kept`), and the authors among them that the viewer follows. As lists, so that PostgreSQL joins them against the
 * viewer's few marks at once rather than probing them for each of 400 candidates. Without `screen`, for a viewer
 * whose 不感兴趣 marks are all they keep out (ViewerSignals.onlyDisliked), nothing is screened here: the caller leaves
 * out those marks, and `kept` is null.
 */
function viewerCandidatesSql(
  viewerId: number,
  topAuthors: readonly unknown[],
  shared: SQL,
  authors: SQL,
  screen: boolean,
): SQL {
  return sql`
    with picks (id, author_id, channel_id, score, pool) as materialized (
      ${ownPoolsSql(viewerId, topAuthors)}
    )
    select p.pool, p.id, p.author_id, p.channel_id, p.score, ${viewerMarks(viewerId, sql`p`)},
      null as kept, null as followed_authors
    from picks p
    ${screen ? sql`where ${viewerFilter(viewerId, 'p')}` : sql``}
    union all
    select null, null, null, null, null, null,
      ${
        screen
          ? sql`array_to_string(array(select s.id from unnest(${shared}, ${authors}) s(id, author_id)
        where ${viewerFilter(viewerId, 's')}), ',')`
          : sql`null`
      },
      array_to_string(array(select f.followee_id from follows f
        where f.follower_id = ${viewerId} and f.followee_id = any (${authors})), ',')`;
}

const names = (prefix: string, size: number) => Array.from({ length: size }, (_, i) => `${prefix}${i}`);
const AUTHOR_NAMES = names('a', POOLS.affinityAuthors);
const compiled = new Map<boolean, { sql: string; params: unknown[] }>();

/**
 * The viewer's statement compiled once (with and without the screen), with placeholders for the viewer, their best
 * authors and the shared ids: building and compiling its drizzle template cost 1 to 2 ms of the process's one thread
 * per feed.
 */
function compiledViewerCandidates(screen: boolean) {
  const ph = (name: string) => sql.placeholder(name);
  let done = compiled.get(screen);
  if (!done) {
    done = new PgDialect().sqlToQuery(
      viewerCandidatesSql(
        numberPlaceholder('viewer'),
        AUTHOR_NAMES.map(ph),
        sql`${ph('shared')}::int[]`,
        sql`${ph('authors')}::int[]`,
        screen,
      ),
    );
    compiled.set(screen, done);
  }
  return done;
}

/**
 * How long the pools every viewer shares (the popular pool, the fresh works, each channel's top) are kept per process:
 * a feed's popular and fresh candidates, and its channels' tops, are at most this far behind the works' counts and
 * publications. A work deleted or hidden since is still left out: the page's cards are read with the visibility rule.
 */
export const SHARED_POOLS = { ttlMs: 1_000 } as const;

/** The shared pools: the popular order's top, the newest works, and each channel's top (its affinity and explore rows). */
interface Shared {
  popular: PoolRow[];
  fresh: PoolRow[];
  channels: Map<number, PoolRow[]>;
}

/** How far down each channel's order the shared pools read: as far as the affinity or the explore pool reaches. */
const CHANNEL_DEPTH = Math.max(POOLS.affinityPerChannel, POOLS.exploreSkip + POOLS.explorePerChannel);

let shared: { key: string; at: number; value: Promise<Shared> } | undefined;
onDbSwitch(() => (shared = undefined));

async function readShared(channels: readonly number[]): Promise<Shared> {
  const { rows } = await db().execute<{
    pool: string;
    id: number;
    author_id: number;
    channel_id: number;
    score: number;
  }>(sql`
    (select ${cols('v')}, 'popular' as pool from videos v where ${listed('v')}
      order by ${rankOf('v')} desc, v.id desc limit ${n(POOLS.popular)})
    union all
    (select ${cols('v')}, 'fresh' from videos v where ${listed('v')}
      order by v.created_at desc, v.id desc limit ${n(POOLS.fresh)})
    union all
    select x.*, 'channel' from unnest(${intArray([...channels])}) c(ch)
      cross join lateral (select ${cols('v')} from videos v where v.channel_id = c.ch and ${listed('v')}
        order by ${rankOf('v')} desc, v.id desc limit ${n(CHANNEL_DEPTH)}) x`);
  const out: Shared = { popular: [], fresh: [], channels: new Map(channels.map((c) => [c, []])) };
  for (const r of rows) {
    const row = poolRow(r);
    if (r.pool === 'channel') out.channels.get(row.channelId)?.push(row);
    else out[r.pool as 'popular' | 'fresh'].push(row);
  }
  // Each channel's rows in the order of its index (score, then id, both descending): its affinity rows are the first
  // ones, its explore rows the ones below them.
  for (const list of out.channels.values()) list.sort((a, b) => b.score - a.score || b.id - a.id);
  return out;
}

/**
 * The shared pools of `channels`, read at most once per SHARED_POOLS.ttlMs by this process (callers meanwhile share
 * the read in flight): every viewer's window 0 takes them from here, so a feed's statement reads only their own pools.
 */
function sharedPools(channels: readonly number[]): Promise<Shared> {
  const key = channels.join(',');
  const now = Date.now();
  if (!shared || shared.key !== key || now - shared.at >= SHARED_POOLS.ttlMs || now < shared.at) {
    const entry = { key, at: now, value: readShared(channels) };
    shared = entry;
    entry.value.catch(() => {
      if (shared === entry) shared = undefined;
    });
  }
  return shared.value;
}

/**
 * Window 0 of a viewer's feed: every pool's candidates (a video may come from several), the shared pools' as this
 * process keeps them, the viewer's own and their marks on the shared ones in one round trip.
 */
export async function gatherCandidates(
  viewerId: number,
  s: ViewerSignals,
  channels: readonly number[],
  nowMs = Date.now(),
): Promise<Candidate[]> {
  const lists = candidateLists(viewerId, s, channels, nowMs);
  const pools = await sharedPools(channels);
  const picked: [PoolRow, FeedPool][] = [];
  const from = (rows: readonly PoolRow[], pool: FeedPool) => rows.forEach((r) => picked.push([r, pool]));
  for (const c of lists.channels) from((pools.channels.get(c) ?? []).slice(0, POOLS.affinityPerChannel), 'affinity');
  from(pools.fresh, 'fresh');
  from(pools.popular, 'popular');
  for (const c of lists.explore)
    from(
      (pools.channels.get(c) ?? []).slice(POOLS.exploreSkip, POOLS.exploreSkip + POOLS.explorePerChannel),
      'explore',
    );
  const ids = new Map<number, number>();
  for (const [r] of picked) ids.set(r.id, r.authorId);
  // Screened by the statement, unless the viewer's 不感兴趣 marks are all they keep out: then here, against those.
  const disliked = s.onlyDisliked;
  const values: Record<string, unknown> = { viewer: viewerId, authors: `{${[...ids.values()].join(',')}}` };
  if (!disliked) values.shared = `{${[...ids.keys()].join(',')}}`;
  AUTHOR_NAMES.forEach((name, i) => (values[name] = lists.authors[i] ?? null));
  const { sql: text, params } = compiledViewerCandidates(!disliked);
  const rows = await queryCompiled<CandidateRow & { kept: string | null; followed_authors: string | null }>(
    text,
    fillPlaceholders(params, values),
    feedDb(),
  );
  const out: Candidate[] = [];
  const marks = rows.find((r) => r.pool === null);
  const kept = disliked ? null : new Set(numbers(marks?.kept));
  const followed = new Set(numbers(marks?.followed_authors));
  for (const r of rows) if (r.pool !== null && !disliked?.has(Number(r.id))) out.push(toCandidate(r, viewerId, s));
  for (const [r, pool] of picked)
    if (kept ? kept.has(r.id) : !disliked!.has(r.id))
      out.push(candidate(r, pool, followed.has(r.authorId), viewerId, s));
  return out;
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
  const { rows } = await feedDb().execute<CandidateRow>(sql`
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
