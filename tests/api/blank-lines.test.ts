/**
 * Text people write is stored with its blank lines collapsed (src/shared/blank-lines.ts): a comment, a reply, a 私信 and
 * a bio written with a run of empty lines and blank lines around keep one blank line between paragraphs and none
 * around them.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';
const WRITTEN = `\n\n  \n第一段${'\n'.repeat(9)}第二段\r\n\r\n\r\n\r\n第三段\n\n\n`;
const STORED = '第一段\n\n第二段\n\n第三段';

let writer: { id: number; token: string };
let peer: { sec_uid: string };
let video: { id: number };

beforeAll(async () => {
  const w = await one<{ id: number }>(ctx, sql`select id from users where not is_demo order by id limit 1 offset 3`);
  writer = { id: w.id, token: await tokenFor(w.id) };
  peer = await one(ctx, sql`select sec_uid from users where not is_demo and id <> ${w.id} order by id desc limit 1`);
  video = await one(
    ctx,
    sql`select id from videos where deleted_at is null and visibility = 'public' and allow_comments order by id limit 1`,
  );
});

const headers = { origin: 'http://shanying.test' };

describe('runs of blank lines collapse to one on write, and blank lines around go', () => {
  it('in a comment and in a reply', async () => {
    const root = await ok('POST', `${W}/comment/publish`, {
      form: { aweme_id: video.id, text: WRITTEN },
      token: writer.token,
      headers,
    });
    expect(root.comment.text).toBe(STORED);
    const reply = await ok('POST', `${W}/comment/publish`, {
      form: { aweme_id: video.id, text: WRITTEN, reply_id: root.comment.cid },
      token: writer.token,
      headers,
    });
    expect(reply.comment.text).toBe(STORED);
    const stored = await ctx.db.execute<{ text: string }>(
      sql`select text from comments where id in (${Number(root.comment.cid)}, ${Number(reply.comment.cid)})`,
    );
    expect(stored.rows.map((r) => r.text)).toEqual([STORED, STORED]);
  });

  it('in a 私信', async () => {
    const sent = await ok('POST', `${W}/im/message/send/`, {
      form: { sec_user_id: peer.sec_uid, text: WRITTEN },
      token: writer.token,
      headers,
    });
    expect(sent.message.text).toBe(STORED);
  });

  it('in a bio', async () => {
    const saved = await ok('POST', `${W}/commit/user/`, {
      form: { signature: WRITTEN },
      token: writer.token,
      headers,
    });
    expect(saved.user.signature).toBe(STORED);
  });
});
