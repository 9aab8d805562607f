import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { danmaku, notifications, users, videos } from '../db/schema.ts';
import { cleanText, DANMAKU_RATE, listDanmaku, MAX_DANMAKU, sendDanmaku } from './danmaku.ts';
import { ServiceError } from '../errors.ts';
import { reset } from './rate-limit.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

/** A video with danmaku, and a user who is not its author. */
async function fixture() {
  const [row] = await t.db
    .execute<{ video_id: number }>(
      sql`select video_id from danmaku group by video_id order by count(*) desc, video_id limit 1`,
    )
    .then((r) => r.rows);
  const [video] = await t.db
    .select()
    .from(videos)
    .where(eq(videos.id, Number(row!.video_id)));
  const [sender] = await t.db
    .select()
    .from(users)
    .where(sql`${users.id} <> ${video!.authorId}`)
    .orderBy(users.id)
    .limit(1);
  return { video: video!, sender: sender! };
}

describe('danmaku service', () => {
  it('lists a video’s danmaku in time order; an unknown video is null', async () => {
    const { video } = await fixture();
    const list = (await listDanmaku(video.id, null))!;
    expect(list.length).toBeGreaterThan(0);
    for (let i = 1; i < list.length; i++) expect(list[i]!.offsetMs).toBeGreaterThanOrEqual(list[i - 1]!.offsetMs);
    for (const d of list) expect(d.offsetMs).toBeLessThanOrEqual(video.durationMs);
    expect(await listDanmaku(2_000_000_000, null)).toBeNull();
  });

  it('hides the danmaku of a user the viewer blocked from that viewer only', async () => {
    const { video } = await fixture();
    const before = (await listDanmaku(video.id, null))!;
    const blocked = before[0]!.userId;
    const [viewer] = await t.db
      .select()
      .from(users)
      .where(sql`${users.id} <> ${blocked}`)
      .orderBy(users.id)
      .limit(1);
    const [other] = await t.db
      .select()
      .from(users)
      .where(sql`${users.id} not in (${blocked}, ${viewer!.id})`)
      .orderBy(users.id)
      .limit(1);
    await t.db.execute(sql`insert into blocks (blocker_id, blocked_id) values (${viewer!.id}, ${blocked})`);
    try {
      const seen = (await listDanmaku(video.id, viewer!.id))!;
      expect(seen.some((d) => d.userId === blocked)).toBe(false);
      expect(seen.length).toBe(before.filter((d) => d.userId !== blocked).length);
      expect((await listDanmaku(video.id, other!.id))!.length).toBe(before.length);
    } finally {
      await t.db.execute(sql`delete from blocks where blocker_id = ${viewer!.id}`);
    }
  });

  it('sends one line at a clamped time, stores the text as given and notifies the author', async () => {
    const { video, sender } = await fixture();
    const sent = await sendDanmaku(sender.id, video.id, '  <b>好看</b>\n\n真的  ', video.durationMs + 60_000);
    expect(sent.text).toBe('<b>好看</b> 真的');
    expect(sent.offsetMs).toBe(video.durationMs);
    expect((await listDanmaku(video.id, null))!.map((d) => d.id)).toContain(sent.id);
    const [note] = await t.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, video.authorId),
          eq(notifications.kind, 'danmaku'),
          eq(notifications.actorId, sender.id),
        ),
      );
    expect(note?.text).toBe(sent.text);
    expect((await sendDanmaku(sender.id, video.id, '开头', -5)).offsetMs).toBe(0);
  });

  it('refuses empty and over-long text, and unknown videos', async () => {
    const { video, sender } = await fixture();
    await expect(sendDanmaku(sender.id, video.id, ' \n ', 0)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sendDanmaku(sender.id, video.id, '好'.repeat(MAX_DANMAKU + 1), 0)).rejects.toMatchObject({
      kind: 'invalid',
    });
    expect((await sendDanmaku(sender.id, video.id, '😀'.repeat(MAX_DANMAKU), 0)).text).toBe('😀'.repeat(MAX_DANMAKU));
    await expect(sendDanmaku(sender.id, 2_000_000_000, '在吗', 0)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it(`allows ${DANMAKU_RATE.limit} a minute per user, then answers rate_limited with a retry time`, async () => {
    const { video, sender } = await fixture();
    await reset(`danmaku:${sender.id}`);
    for (let i = 0; i < DANMAKU_RATE.limit; i++) await sendDanmaku(sender.id, video.id, `第${i}条`, i * 100);
    const refused = await sendDanmaku(sender.id, video.id, '再来一条', 0).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).kind).toBe('rate_limited');
    expect((refused as ServiceError).retryAfter).toBeGreaterThan(0);
    const [{ n }] = (await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(danmaku)
      .where(eq(danmaku.text, '再来一条'))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('cleanText folds whitespace into single spaces', () => {
    expect(cleanText('\t a \n\r b  ')).toBe('a b');
  });
});
