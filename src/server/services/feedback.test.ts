import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { FEEDBACK_RATE, submitFeedback } from './feedback.ts';

let t: TestDb;
let me: number;
beforeAll(async () => {
  t = await freshDb();
  me = (await t.db.execute<{ id: number }>(sql`select id from users order by id limit 1`)).rows[0]!.id;
});
afterAll(() => t.close());

const stored = async (id: number) =>
  (
    await t.db.execute<{ user_id: number | null; contact: string | null; content: string }>(
      sql`select user_id, contact, content from feedback where id = ${id}`,
    )
  ).rows[0];

describe('feedback', () => {
  it('stores the trimmed message with its account and contact', async () => {
    const { id } = await submitFeedback({
      userId: me,
      contact: '  me@example.com ',
      content: '  播放页希望加一个倍速记忆  ',
      clientAddress: 'a',
    });
    expect(await stored(id)).toEqual({ user_id: me, contact: 'me@example.com', content: '播放页希望加一个倍速记忆' });
    const anonymous = await submitFeedback({
      userId: null,
      contact: '',
      content: '没有登录也能反馈吗',
      clientAddress: 'b',
    });
    expect(await stored(anonymous.id)).toEqual({ user_id: null, contact: null, content: '没有登录也能反馈吗' });
  });

  it('refuses text that is too short or too long before counting it', async () => {
    await expect(submitFeedback({ userId: null, content: '  短 ', clientAddress: 'c' })).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(submitFeedback({ userId: null, content: '长'.repeat(501), clientAddress: 'c' })).rejects.toMatchObject(
      { kind: 'invalid' },
    );
    await expect(
      submitFeedback({ userId: null, content: '联系方式太长了', contact: 'x'.repeat(101), clientAddress: 'c' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    const { rows } = await t.db.execute(sql`select 1 from rate_limits where key = 'feedback:ip:c'`);
    expect(rows).toHaveLength(0);
  });

  it('limits a burst per address, and per account across addresses', async () => {
    for (let i = 0; i < FEEDBACK_RATE.limit; i++)
      await submitFeedback({ userId: null, content: `第${i}条连续的反馈`, clientAddress: 'burst' });
    await expect(
      submitFeedback({ userId: null, content: '第四条连续的反馈', clientAddress: 'burst' }),
    ).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfter: expect.any(Number),
    });
    const user = (await t.db.execute<{ id: number }>(sql`select id from users order by id limit 1 offset 1`)).rows[0]!
      .id;
    for (let i = 0; i < FEEDBACK_RATE.limit; i++)
      await submitFeedback({ userId: user, content: `换着地址发第${i}条`, clientAddress: `ip-${i}` });
    await expect(
      submitFeedback({ userId: user, content: '换了地址还是同一个账号', clientAddress: 'ip-new' }),
    ).rejects.toMatchObject({ kind: 'rate_limited' });
  });
});
