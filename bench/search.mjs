/**
 * `npm run bench:search`: p50 and p99 latency of search (videos by keyword) and suggestions (search/sug), calling the
 * services directly, over the seeded site and again after adding 100,000 generated videos (BENCH_VIDEOS) and as many logged searches
 * (BENCH_SEARCHES; a third of them one-off phrasings, the long tail) to it. Targets: p99 under 100 ms for search and under 30 ms for suggestions. A benchmark: it prints, never fails.
 *
 * It runs on a throwaway embedded PostgreSQL in a temporary directory (deleted at the end), never on ./data.
 */
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { closeDb, connect, useDb } from '../src/server/db/client.ts';
import { startDatabase } from '../src/server/db/lifecycle.ts';
import { CHANNEL_IDS, CHANNELS, NICK_SUFFIXES } from '../src/server/db/seed/content.ts';
import { mulberry32 } from '../src/server/db/seed/rng.ts';
import { guessWords } from '../src/server/services/guess.ts';
import { clearHotWords, hotSearchWords } from '../src/server/services/hot-search.ts';
import { recordSearch } from '../src/server/services/search-log.ts';
import { searchUsers, searchVideos } from '../src/server/services/search.ts';
import { tokenize } from '../src/server/services/search-tokens.ts';
import { clearSuggestCache, suggestByPrefix } from '../src/server/services/suggest.ts';
import { tempDataDir } from './lib.mjs';

const GENERATED = Number(process.env.BENCH_VIDEOS ?? 100_000);
/** Searches logged over the generated week (BENCH_SEARCHES; as many as videos unless set). */
const LOGGED = Number(process.env.BENCH_SEARCHES ?? GENERATED);
const CHUNK = 10_000;
const TARGET = { search: 100, users: 100, suggest: 30 };

// mulberry32, as the seed uses: the same generated site on every run.
const random = mulberry32(20_240_601);
const pick = (items) => items[Math.floor(random() * items.length)];

// Keywords as people type them: channel words, tags, drama-style phrases, nickname parts, single characters, misses.
const channels = CHANNEL_IDS.map((id) => CHANNELS[id]);
const words = [...new Set(channels.flatMap((c) => [...c.a.slice(0, 4), ...c.b.slice(0, 2), ...c.tags.slice(0, 2)]))];
const SEARCHES = [
  ...words,
  ...channels.map((c) => `${c.nickPrefixes[0]}${NICK_SUFFIXES[0]}`),
  '的',
  '一',
  '美',
  'vlog',
  '周末和柯基一起去海边',
  '三分钟讲清楚黑洞',
  '不存在的关键词组合',
  'zzz',
];
const PREFIXES = [
  ...new Set([...words.map((w) => [...w][0]), ...words.map((w) => [...w].slice(0, 2).join('')), 'v', '周末', '不存在']),
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))];
}

/** Calls `fn` for each input `rounds` times (after one warm-up pass); returns p50/p99 in ms. */
async function measure(inputs, rounds, fn) {
  for (const x of inputs) await fn(x);
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const x of inputs) {
      const t = performance.now();
      await fn(x);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  return {
    calls: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times[times.length - 1],
  };
}

async function run(label, db) {
  const counts = (
    await db.execute(
      sql`select (select count(*) from videos)::int as videos, (select count(*) from search_log)::int as searches`,
    )
  ).rows[0];
  const rows = [];
  const add = (op, target, m) =>
    rows.push({ dataset: `${label} (${counts.videos} videos, ${counts.searches} searches)`, op, target, ...m });
  add('search videos (page of 20)', TARGET.search, await measure(SEARCHES, 6, (q) => searchVideos(q, { count: 20 })));
  // Page 3 by its cursor (a keyset position), as the next-page calls ask for it.
  const third = [];
  for (const q of SEARCHES) {
    let page = await searchVideos(q, { count: 20 });
    if (page.hasMore) page = await searchVideos(q, { cursor: page.cursor, count: 20 });
    if (page.hasMore) third.push([q, page.cursor]);
  }
  add(
    'search videos, page 3',
    TARGET.search,
    await measure(third, 2, ([q, cursor]) => searchVideos(q, { cursor, count: 20 })),
  );
  add('search users', TARGET.users, await measure(SEARCHES, 3, (q) => searchUsers(q, { count: 20 })));
  add('suggestions (search/sug)', TARGET.suggest, await measure(PREFIXES, 8, (p) => suggestByPrefix(p)));
  const viewers = [
    [null, 0],
    [null, 1],
    [1, 0],
    [2, 3],
  ];
  add(
    '猜你想搜 (visitor and users, several rounds)',
    undefined,
    await measure(viewers, 10, ([viewer, round]) => guessWords(viewer, { round, count: 6 })),
  );
  add(
    '热搜, uncached (every 10 s)',
    undefined,
    await measure([0], 10, async () => {
      clearHotWords();
      await hotSearchWords(6);
    }),
  );
  let k = 0;
  add('log a search', undefined, await measure([0], 200, () => recordSearch(`基准搜索${k++ % 50}`, { userId: null })));
  return rows;
}

/** 100,000 videos written like the seed's: a channel's title template, its tags, an existing author; tokens from tokenize(). */
async function generate(db, n, searches) {
  const authors = (await db.execute(sql`select id, nickname from users order by id`)).rows;
  const tags = new Map((await db.execute(sql`select id, name from hashtags`)).rows.map((r) => [r.name, r.id]));
  const {
    rows: [{ max }],
  } = await db.execute(sql`select coalesce(max(id), 0)::int as max from videos`);
  const clip = (
    await db.execute(sql`select media, poster, duration_ms, width, height, size_bytes from videos order by id limit 1`)
  ).rows[0];
  const now = Date.now();
  for (let start = 0; start < n; start += CHUNK) {
    const cols = { id: [], author: [], channel: [], desc: [], tokens: [], digg: [], play: [], created: [] };
    const pairs = { video: [], tag: [] };
    for (let i = start; i < Math.min(n, start + CHUNK); i++) {
      const channelId = pick(CHANNEL_IDS);
      const c = CHANNELS[channelId];
      const a = pick(c.a);
      const title = pick(c.titles).replace('{a}', a).replace('{b}', pick(c.b));
      const chosen = [...new Set([c.tags[0], pick(c.tags), a])].filter((t) => tags.has(t));
      const desc = `${title} ${chosen.map((t) => `#${t}`).join(' ')}`;
      const author = pick(authors);
      const id = max + i + 1;
      cols.id.push(id);
      cols.author.push(author.id);
      cols.channel.push(channelId);
      cols.desc.push(desc);
      cols.tokens.push(tokenize(`${desc} ${author.nickname}`).join(' '));
      const digg = Math.floor(random() ** 3 * 5000);
      cols.digg.push(digg);
      cols.play.push(digg * 40 + Math.floor(random() * 3000));
      cols.created.push(new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString());
      for (const t of chosen) {
        pairs.video.push(id);
        pairs.tag.push(tags.get(t));
      }
    }
    await db.execute(sql`
      insert into videos (id, author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, digg_count, play_count, search_tokens, created_at)
      overriding system value
      select g.id, g.author, g.channel, g.d, ${clip.media}, ${clip.poster}, ${clip.duration_ms}, ${clip.width}, ${clip.height}, ${clip.size_bytes},
             g.digg, g.play, string_to_array(g.tokens, ' '), g.created
      from unnest(${sql.param(cols.id)}::int[], ${sql.param(cols.author)}::int[], ${sql.param(cols.channel)}::int[], ${sql.param(cols.desc)}::text[],
                  ${sql.param(cols.tokens)}::text[], ${sql.param(cols.digg)}::int[], ${sql.param(cols.play)}::int[], ${sql.param(cols.created)}::timestamptz[])
        as g(id, author, channel, d, tokens, digg, play, created)`);
    await db.execute(sql`insert into video_hashtags (video_id, hashtag_id)
      select * from unnest(${sql.param(pairs.video)}::int[], ${sql.param(pairs.tag)}::int[]) on conflict do nothing`);
  }
  await db.execute(sql`select setval(pg_get_serial_sequence('videos', 'id'), (select max(id) from videos))`);
  // A week of searches at a busier site's rate: the seed's queries, most of them on a few words, 60% by logged-in users.
  const pool = [...new Set([...tags.keys(), ...words])];
  const queries = Array.from({ length: searches }, () => {
    const word = pool[Math.floor(random() ** 2.5 * pool.length)];
    return random() < 1 / 3 ? `${word} ${Math.floor(random() * searches)}` : word;
  });
  const users = Array.from({ length: searches }, () => (random() < 0.6 ? pick(authors).id : null));
  const ages = Array.from({ length: searches }, () => Math.floor(random() * 7 * 86_400));
  for (let s = 0; s < searches; s += CHUNK * 5) {
    await db.execute(sql`insert into search_log (user_id, query, created_at)
      select u, q, now() - make_interval(secs => a) from unnest(${sql.param(users.slice(s, s + CHUNK * 5))}::int[],
        ${sql.param(queries.slice(s, s + CHUNK * 5))}::text[], ${sql.param(ages.slice(s, s + CHUNK * 5))}::int[]) as g(u, q, a)`);
  }
  await db.execute(sql`analyze videos; analyze video_hashtags; analyze search_log; analyze users`);
}

const fmt = (ms) => (ms === undefined ? '' : ms.toFixed(2));

async function main() {
  const dataDir = tempDataDir('shanying-bench-search-');
  const log = () => {};
  const handle = await startDatabase({ dataDir, databaseUrl: '', log });
  const { db, pool } = connect(handle.url, 4);
  useDb(db);
  try {
    const rows = await run('seeded', db);
    const t = performance.now();
    await generate(db, GENERATED, LOGGED);
    console.log(
      `generated ${GENERATED} videos and ${LOGGED} searches in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    clearHotWords();
    clearSuggestCache();
    rows.push(...(await run('generated', db)));

    console.log('\n| dataset | operation | calls | p50 ms | p99 ms | max ms | target p99 | met |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) {
      const met = r.target === undefined ? '' : r.p99 < r.target ? 'yes' : 'NO';
      console.log(
        `| ${r.dataset} | ${r.op} | ${r.calls} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.target ? `< ${r.target}` : ''} | ${met} |`,
      );
    }
  } finally {
    await pool.end();
    await closeDb();
    await handle.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
