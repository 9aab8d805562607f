import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { makeClip } from '../../../tests/setup/clips.ts';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { recountAll } from '../db/recount.ts';
import { startQueue, stopQueue } from '../job-queue.ts';
import { mediaDir, uploadsDir } from '../media/paths.ts';
import { finishDeletion, requestDeletion, sendDeletionCode } from './account-deletion.ts';
import { loginWithPassword } from './auth/password.ts';
import { publishComment } from './comment-writes.ts';
import { buildExport, openExport, requestExport, sweepExports } from './data-export.ts';
import { ServiceError } from '../errors.ts';
import { setCommentLike, setVideoLike } from './interactions.ts';
import { lastOutboxCode } from './mailer.ts';
import { sendMessage } from './messages.ts';
import { hashPassword } from './password.ts';
import { createSession, resolveSession } from './sessions.ts';
import { setFollow } from './social.ts';

let t: TestDb;
let dir: string;
const saved = process.env.DATA_DIR;
const ctx = { ip: '192.0.2.1' };
const PASSWORD = 'a long enough passphrase';
let a: number;
let b: number;
let aWork: number;
let others: number[];

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await t.pool.query(sql, params)).rows as T[];

async function member(label: string): Promise<number> {
  const [row] = await q<{ id: number }>(
    `insert into users (sec_uid, email, nickname, avatar, password_hash) values ($1, $2, $3, 'avatars/a01.webp', $4) returning id`,
    [`sec-${label}-${Date.now()}`, `${label}@account.test`, `测试${label}`, await hashPassword(PASSWORD)],
  );
  return row!.id;
}

/** Every counter of the site, to compare with what recountAll derives from the rows. */
async function counters(): Promise<string> {
  const rows = await Promise.all([
    q(
      'select id, following_count, follower_count, aweme_count, total_favorited, favoriting_count, collect_count from users order by id',
    ),
    q('select id, digg_count, collect_count, comment_count from videos order by id'),
    q('select id, digg_count, reply_count from comments order by id'),
    q('select id, item_count from series order by id'),
  ]);
  return JSON.stringify(rows);
}

/** The ZIP's entries: name → text (JSON and other small files) or byte size. */
function entries(file: string): Promise<Map<string, string | number>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, string | number>();
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const body = Buffer.concat(chunks);
            out.set(entry.fileName, entry.fileName.endsWith('.json') ? body.toString('utf8') : body.length);
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  t = await freshDb();
  dir = mkdtempSync(path.join(tmpdir(), 'account-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  mkdirSync(uploadsDir(), { recursive: true });
  await startQueue(t.url);
  a = await member('a');
  b = await member('b');
  // A's work: a real file in the store, liked by B, commented on by B.
  mkdirSync(path.join(mediaDir(), 'works', 'export-test'), { recursive: true });
  makeClip(path.join(mediaDir(), 'works', 'export-test'), '540.mp4', { seconds: 2 });
  [{ id: aWork }] = (await q<{ id: number }>(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes)
     values ($1, 300204, 'A 的作品 #导出', 'works/export-test/540.mp4', 'works/export-test/540.mp4', 2000, 180, 320, 1000) returning id`,
    [a],
  )) as [{ id: number }];
  await q('update users set aweme_count = aweme_count + 1 where id = $1', [a]);
  others = (
    await q<{ id: number }>(
      `select id from videos where author_id not in ($1, $2) and deleted_at is null and visibility = 'public' order by id limit 3`,
      [a, b],
    )
  ).map((r) => r.id);
  // What A did to others (the counts its deletion must correct) and what others did to A.
  await setFollow(a, b, true);
  await setFollow(b, a, true);
  await setVideoLike(a, others[0]!, true);
  await setVideoLike(b, aWork, true);
  const root = await publishComment(a, others[1]!, 'A 的评论');
  await publishComment(b, others[1]!, 'B 回复 A', root.id);
  const bComment = await publishComment(b, others[2]!, 'B 的评论');
  await setCommentLike(a, bComment.id, true);
  await publishComment(a, others[2]!, 'A 回复 B', bComment.id);
  await publishComment(b, aWork, 'B 评论 A 的作品');
  await sendMessage(a, b, 'A 写给 B 的私信');
  await sendMessage(b, a, 'B 回给 A 的私信');
  // 收藏 → 音乐 and 观看历史 → 用户 (B too, whose lists must stay out of A's export).
  await q('insert into music_collects (user_id, video_id) values ($1, $2), ($3, $4)', [a, others[0]!, b, others[1]!]);
  await q('insert into profile_visits (viewer_id, user_id) values ($1, $2), ($2, $1)', [a, b]);
  // What A told the feed: 不感兴趣, 减少此类 and 屏蔽 (B's own, which must stay out of A's export).
  await q('insert into not_interested (user_id, video_id) values ($1, $2), ($3, $4)', [a, others[2]!, b, others[0]!]);
  await q(`insert into feed_less (user_id, kind, target_id) values ($1, 'channel', 300204), ($2, 'author', $1)`, [
    a,
    b,
  ]);
  await q(
    `insert into mutes (user_id, kind, value, author_id) values ($1, 'keyword', '剧透', null), ($1, 'author', $2::int::text, $2::int),
     ($2, 'keyword', '广告', null)`,
    [a, b],
  );
});

afterAll(async () => {
  await stopQueue();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
});

describe('下载我的数据', () => {
  it('builds a ZIP of the member’s works and messages and nobody else’s, downloadable by its owner only', async () => {
    const asked = await requestExport(a);
    expect(asked.status).toBe('pending');
    await expect(requestExport(a)).rejects.toMatchObject({ key: 'error.exportBusy' });
    expect(await buildExport(asked.id)).toBe('ready');
    const zip = await openExport(a, asked.id);
    const files = await entries(zip.file);
    const works = JSON.parse(files.get('works.json') as string) as { id: number; files: string[] }[];
    expect(works.map((w) => w.id)).toEqual([aWork]);
    expect(files.get(`works/${aWork}/video.mp4`)).toBeGreaterThan(1000);
    const chats = JSON.parse(files.get('messages.json') as string) as {
      messages: { text: string; fromMe: boolean }[];
    }[];
    expect(chats.flatMap((c) => c.messages.map((m) => [m.text, m.fromMe]))).toEqual([
      ['A 写给 B 的私信', true],
      ['B 回给 A 的私信', false],
    ]);
    const comments = JSON.parse(files.get('comments.json') as string) as { text: string }[];
    expect(comments.map((c) => c.text).sort()).toEqual(['A 回复 B', 'A 的评论']);
    for (const name of ['profile.json', 'likes.json', 'follows.json', 'watch_history.json', 'settings.json']) {
      expect(files.has(name), name).toBe(true);
    }
    const collects = JSON.parse(files.get('collects.json') as string) as { sounds: { id: number }[] };
    expect(collects.sounds.map((s) => s.id)).toEqual([others[0]]);
    const watched = JSON.parse(files.get('watch_history.json') as string) as { profiles: { nickname: string }[] };
    expect(watched.profiles.map((p) => p.nickname)).toEqual(['测试b']);
    const told = JSON.parse(files.get('feed_preferences.json') as string) as {
      notInterested: { id: number }[];
      less: { kind: string; id: number }[];
      mutes: { kind: string; value?: string; nickname?: string }[];
    };
    expect(told.notInterested.map((v) => v.id)).toEqual([others[2]]);
    expect(told.less.map(({ kind, id }) => [kind, id])).toEqual([['channel', 300204]]);
    expect(told.mutes.map(({ kind, value, nickname }) => [kind, value ?? nickname])).toEqual([
      ['keyword', '剧透'],
      ['author', '测试b'],
    ]);
    const { rows } = await t.pool.query(
      `select kind, export_id from notifications where user_id = $1 and kind = 'export_ready'`,
      [a],
    );
    expect(rows).toEqual([{ kind: 'export_ready', export_id: asked.id }]);

    // Anyone else, an unknown id, and the owner once it has expired: as if it never existed.
    for (const attempt of [() => openExport(b, asked.id), () => openExport(a, asked.id + 1000)]) {
      await expect(attempt()).rejects.toMatchObject({ kind: 'not_found', key: 'error.exportNotFound' });
    }
    await q(`update data_exports set expires_at = now() - interval '1 second' where id = $1`, [asked.id]);
    await expect(openExport(a, asked.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await sweepExports()).toBe(1);
    expect(await q('select id from notifications where export_id = $1', [asked.id])).toEqual([]);
  });
});

describe('注销账号', () => {
  it('needs the password or a fresh mailed code, ends every session, and a login during the cooling-off cancels it', async () => {
    const { token } = await createSession(a);
    const wrong = await requestDeletion(a, { password: 'not the password' }, ctx).catch((e: ServiceError) => e);
    expect(wrong).toMatchObject({ kind: 'forbidden', key: 'error.deleteWrongPassword' });
    await expect(requestDeletion(a, {}, ctx)).rejects.toMatchObject({ key: 'error.deletePasswordOrCode' });
    expect(await resolveSession(token)).not.toBeNull();

    await sendDeletionCode(a, ctx);
    const code = await lastOutboxCode('a@account.test');
    const due = await requestDeletion(a, { code: code! }, ctx);
    expect(due.getTime() - Date.now()).toBeGreaterThan(14.9 * 86_400_000);
    expect(await resolveSession(token)).toBeNull();

    // The cooling-off's end arrives early for a job that runs too soon: nothing happens.
    expect(await finishDeletion(a)).toBe('not-due');
    const login = await loginWithPassword('a@account.test', PASSWORD, ctx);
    expect(login.deletionCancelled).toBe(true);
    expect(await q('select deletion_due_at from users where id = $1', [a])).toEqual([{ deletion_due_at: null }]);
    // A cancelled deletion stays cancelled when its time comes.
    expect(await finishDeletion(a)).toBe('not-due');
  });

  it('deletes the account when the cooling-off has ended, and every count on the site stays true', async () => {
    await requestDeletion(a, { password: PASSWORD }, ctx);
    // Fifteen days later.
    await q(`update users set deletion_due_at = now() - interval '1 second' where id = $1`, [a]);
    expect(await finishDeletion(a)).toBe('deleted');
    expect(await q('select id from users where id = $1', [a])).toEqual([]);
    expect(await q('select id from videos where author_id = $1', [a])).toEqual([]);
    expect(await q(`select id from comments where text in ('A 的评论', 'B 回复 A', 'A 回复 B')`)).toEqual([]);
    expect(await q(`select id from messages where text like '%私信'`)).toEqual([]);
    const [bRow] = await q<{ follower_count: number; following_count: number; favoriting_count: number }>(
      'select follower_count, following_count, favoriting_count from users where id = $1',
      [b],
    );
    expect(bRow).toEqual({ follower_count: 0, following_count: 0, favoriting_count: 0 });
    // The oracle: recountAll derives every counter from the rows and must find nothing to change.
    const before = await counters();
    await recountAll(t.db);
    expect(await counters()).toBe(before);
    expect(await finishDeletion(a)).toBe('gone');
  });
});
