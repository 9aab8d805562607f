/**
 * The Idempotency-Key header on the writes a client sends again when it cannot know whether they were made (a comment,
 * a message, a work published): a repeat answers the first write and makes nothing, racing repeats make one write,
 * the same key with another request is refused, and a request without a key is made as always.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, ok, one, tokenFor, useApiDb, type Answer } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';
const IM = `${W}/im`;

let me: { id: number; sec_uid: string; token: string };
let other: { id: number; sec_uid: string; token: string };
let videoId: number;
let serial = 0;

async function member(offset: number) {
  const row = await one<{ id: number; sec_uid: string }>(
    ctx,
    sql`select id, sec_uid from users where not is_demo order by id limit 1 offset ${offset}`,
  );
  return { ...row, token: await tokenFor(row.id) };
}

beforeAll(async () => {
  me = await member(5);
  other = await member(6);
  videoId = (
    await one<{ id: number }>(
      ctx,
      sql`select id from videos where deleted_at is null and allow_comments and visibility = 'public' and author_id not in (${me.id}, ${other.id}) order by id limit 1`,
    )
  ).id;
});

const newKey = () => `key-${process.pid}-${Date.now()}-${serial++}`;

const comment = (who: typeof me, text: string, key?: string): Promise<Answer> =>
  call('POST', `${W}/comment/publish`, {
    token: who.token,
    form: { aweme_id: videoId, text },
    headers: key ? { 'Idempotency-Key': key } : {},
  });

const rowsWithText = async (table: 'comments' | 'messages', text: string) =>
  (await one<{ n: number }>(ctx, sql`select count(*)::int as n from ${sql.raw(table)} where text = ${text}`)).n;

const commentCount = async () =>
  (await one<{ n: number }>(ctx, sql`select comment_count as n from videos where id = ${videoId}`)).n;

describe('comment/publish with an Idempotency-Key', () => {
  it('a repeat answers the first comment and makes nothing; the count moves once', async () => {
    const key = newKey();
    const text = `只发一次 ${key}`;
    const before = await commentCount();
    const first = await comment(me, text, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await comment(me, text, key);
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.comment.cid).toBe(first.body.comment.cid);
    expect(again.body.comment.text).toBe(text);
    expect(again.body.comment_count).toBe(before + 1);
    expect(await rowsWithText('comments', text)).toBe(1);
    expect(await commentCount()).toBe(before + 1);
  });

  it('repeats racing the first attempt make one comment, and all answer it', async () => {
    const key = newKey();
    const text = `同时重发 ${key}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => comment(me, text, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.comment.cid)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await rowsWithText('comments', text)).toBe(1);
  });

  it('the same key with other text is refused and stores nothing; a bad key is a 400', async () => {
    const key = newKey();
    expect((await comment(me, `第一条 ${key}`, key)).status).toBe(200);
    const reused = await comment(me, `第二条 ${key}`, key);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ status_msg: '这个请求标识已用于另一个请求' });
    expect(await rowsWithText('comments', `第二条 ${key}`)).toBe(0);

    for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'clé-clé-clé-clé']) {
      const refused = await comment(me, `坏的标识 ${key}`, bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.body).toMatchObject({ status_msg: '请求标识格式不正确' });
    }
    expect(await rowsWithText('comments', `坏的标识 ${key}`)).toBe(0);
  });

  it('a key is its user’s: another member using it makes their own comment', async () => {
    const key = newKey();
    const text = `各自的标识 ${key}`;
    const mine = await comment(me, text, key);
    const theirs = await comment(other, text, key);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.comment.cid).not.toBe(mine.body.comment.cid);
    expect(await rowsWithText('comments', text)).toBe(2);
  });

  it('a write refused is not remembered: the key makes the write once the refusal is gone', async () => {
    const key = newKey();
    const text = `关闭后再开 ${key}`;
    await ctx.db.execute(sql`update videos set allow_comments = false where id = ${videoId}`);
    try {
      expect((await comment(me, text, key)).status).toBe(403);
    } finally {
      await ctx.db.execute(sql`update videos set allow_comments = true where id = ${videoId}`);
    }
    const made = await comment(me, text, key);
    expect(made.status, made.text).toBe(200);
    expect(made.headers.get('idempotent-replayed')).toBeNull();
    expect(await rowsWithText('comments', text)).toBe(1);
  });

  it('without a key, the same comment sent twice is two comments (as before)', async () => {
    const text = `没有标识 ${newKey()}`;
    await ok('POST', `${W}/comment/publish`, { token: me.token, form: { aweme_id: videoId, text } });
    await ok('POST', `${W}/comment/publish`, { token: me.token, form: { aweme_id: videoId, text } });
    expect(await rowsWithText('comments', text)).toBe(2);
  });
});

describe('message/send with an Idempotency-Key', () => {
  it('a repeat answers the first message, past the one-message rule, and sends nothing', async () => {
    const key = newKey();
    const text = `你好 ${key}`;
    const send = () =>
      call('POST', `${IM}/message/send/`, {
        token: me.token,
        form: { sec_user_id: other.sec_uid, text },
        headers: { 'Idempotency-Key': key },
      });
    const first = await send();
    expect(first.status, first.text).toBe(200);
    const again = await send();
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.message.server_message_id ?? again.body.message.message_id).toBe(
      first.body.message.server_message_id ?? first.body.message.message_id,
    );
    expect(again.body.conversation).toEqual(first.body.conversation);
    expect(await rowsWithText('messages', text)).toBe(1);
  });
});

describe('studio/work/create with an Idempotency-Key', () => {
  async function finishedUpload(): Promise<string> {
    const id = `once-${process.pid}-${serial++}`;
    await ctx.db.execute(sql`
      insert into uploads (id, user_id, kind, file_name, size_bytes, status, duration_ms, width, height)
      values (${id}, ${me.id}, 'video', 'clip.mp4', 1000, 'processing', 5000, 720, 1280)`);
    return id;
  }
  const publish = (uploadId: string, key?: string) =>
    call('POST', '/studio/work/create', {
      token: me.token,
      json: { uploadId, title: `一次发布 ${uploadId}`, channelId: 300201 },
      headers: key ? { 'Idempotency-Key': key } : {},
    });
  const works = async (uploadId: string) =>
    (await one<{ n: number }>(ctx, sql`select count(*)::int as n from videos where "desc" = ${`一次发布 ${uploadId}`}`))
      .n;

  it('a repeat answers the work the first made; without the key the repeat is refused as before', async () => {
    const uploadId = await finishedUpload();
    const key = newKey();
    const first = await publish(uploadId, key);
    expect(first.status, first.text).toBe(200);
    const again = await publish(uploadId, key);
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await works(uploadId)).toBe(1);
    const unkeyed = await publish(uploadId);
    expect(unkeyed.status).toBe(409);
  });

  it('repeats racing the first make one work, and all answer it', async () => {
    const uploadId = await finishedUpload();
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 4 }, () => publish(uploadId, key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await works(uploadId)).toBe(1);
  });
});
