/**
 * What a moderator hid, its author cannot show again through the API: the studio's edit refuses to make a removed work
 * public or friends-only (403, the reason in Family B's envelope); a banned member has no session left to try and cannot
 * log in for one; a removed comment comes back through none of its author's doors (Family A delete, like, reply;
 * Family B reply) and stays out of every list until a moderator restores it.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { grantRole } from '../../src/server/staff/roles.ts';
import { hashPassword } from '../../src/server/services/password.ts';
import { call, expectErrorB, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const ORIGIN = 'http://shanying.test';
let moderator: string;

beforeAll(async () => {
  const { id } = await one<{ id: number }>(ctx, sql`select id from users order by id limit 1`);
  await grantRole(null, Number(id), 'moderator');
  moderator = await tokenFor(Number(id));
});

/** A staff write from the console's own origin. */
const staff = (path: string, form: Record<string, string | number>) =>
  call('POST', `/api/admin${path}`, { token: moderator, headers: { origin: ORIGIN }, form });

/** A public work of an author who is not staff, one per call. */
const taken: number[] = [0];
async function work(): Promise<{ id: number; authorId: number; token: string }> {
  const row = await one<{ id: number; author_id: number }>(
    ctx,
    sql`select v.id, v.author_id from videos v
         where v.visibility = 'public' and v.status = 'published' and v.deleted_at is null
           and v.author_id not in (select user_id from staff_roles)
           and not (v.author_id = any(${`{${taken.join(',')}}`}::int[]))
         order by v.id limit 1`,
  );
  taken.push(Number(row.author_id));
  return { id: Number(row.id), authorId: Number(row.author_id), token: await tokenFor(Number(row.author_id)) };
}

const visibility = async (id: number) =>
  (await one<{ visibility: string }>(ctx, sql`select visibility from videos where id = ${id}`)).visibility;

describe('a removed work', () => {
  it('is refused to its author as public or friends-only, with the reason, in the studio’s envelope', async () => {
    const w = await work();
    expect((await staff('/moderation/remove', { type: 'video', id: w.id, reason: '搬运他人作品' })).status).toBe(200);
    for (const v of ['public', 'friends']) {
      const edit = await call('POST', '/api/studio/work/edit', {
        token: w.token,
        form: { workId: w.id, visibility: v },
      });
      expectErrorB(edit, 403);
      expect(edit.body.msg).toBe(t('error.workRemoved', { reason: '搬运他人作品' }));
    }
    expect(await visibility(w.id)).toBe('private');
    const detail = await call('GET', '/api/aweme/v1/web/aweme/detail/', { query: { aweme_id: w.id } });
    expect(detail.body.aweme_detail ?? null).toBeNull();

    // Kept private, its other fields still change; once restored, its author may show it again.
    const titled = await call('POST', '/api/studio/work/edit', {
      token: w.token,
      form: { workId: w.id, title: '改过的标题', visibility: 'private' },
    });
    expect(titled.status, titled.text).toBe(200);
    expect((await staff('/moderation/restore', { type: 'video', id: w.id })).status).toBe(200);
    expect(await visibility(w.id)).toBe('public');
    const shown = await call('POST', '/api/studio/work/edit', {
      token: w.token,
      form: { workId: w.id, visibility: 'friends' },
    });
    expect(shown.status, shown.text).toBe(200);
    expect(await visibility(w.id)).toBe('friends');
  });
});

describe('a banned member’s hidden works', () => {
  it('stay hidden: the member’s session ends, a login is refused with the reason, and the works come back with the lift', async () => {
    const w = await work();
    const email = `banned-${w.authorId}@holds.test`;
    await ctx.db.execute(
      sql`update users set email = ${email}, password_hash = ${await hashPassword('banned-pass-42')} where id = ${w.authorId}`,
    );
    expect((await staff('/moderation/ban', { user_id: w.authorId, reason: '诈骗' })).status).toBe(200);
    expect(await visibility(w.id)).toBe('private');

    const edit = await call('POST', '/api/studio/work/edit', {
      token: w.token,
      form: { workId: w.id, visibility: 'public' },
    });
    expectErrorB(edit, 401);
    const login = await call('POST', '/api/passport/login/password', {
      headers: { origin: ORIGIN },
      form: { email, password: 'banned-pass-42' },
    });
    expect(login.status, login.text).toBe(403);
    expect(login.body.status_msg).toBe(t('error.banned', { reason: '诈骗' }));
    expect(await visibility(w.id)).toBe('private');

    expect((await staff('/moderation/lift', { user_id: w.authorId, kind: 'ban' })).status).toBe(200);
    expect(await visibility(w.id)).toBe('public');
  });
});

describe('a removed comment', () => {
  it('comes back through none of its author’s doors, and only a moderator restores it', async () => {
    const w = await work();
    const writer = await work();
    const posted = await call('POST', '/api/aweme/v1/web/comment/publish', {
      token: writer.token,
      form: { aweme_id: w.id, text: '加我微信领红包' },
    });
    expect(posted.status, posted.text).toBe(200);
    const cid = String(posted.body.comment.cid);
    expect((await staff('/moderation/remove', { type: 'comment', id: cid, reason: '广告' })).status).toBe(200);

    const tries = [
      ['Family A delete', '/api/aweme/v1/web/comment/delete', { cid }],
      ['Family A like', '/api/aweme/v1/web/comment/digg', { cid, aweme_id: w.id, digg_type: 1 }],
      ['Family A reply', '/api/aweme/v1/web/comment/publish', { aweme_id: w.id, text: '我没违规', reply_id: cid }],
      ['Family B reply', '/api/comment/add', { vid: w.id, text: '我没违规', parentId: cid }],
    ] as const;
    for (const [door, path, form] of tries) {
      const answer = await call('POST', path, { token: writer.token, form });
      expect(answer.status, `${door}: ${answer.text}`).toBe(404);
    }
    const listed = async () =>
      (
        await call('GET', '/api/aweme/v1/web/comment/list/', {
          token: writer.token,
          query: { aweme_id: w.id, count: 50 },
        })
      ).text;
    expect(await listed()).not.toContain(`"${cid}"`);
    const row = await one<{ deleted: boolean; open: number }>(
      ctx,
      sql`select (select deleted_at is not null from comments where id = ${cid}) as deleted,
                 (select count(*)::int from removals where target_type = 'comment' and target_id = ${cid} and restored_at is null) as open`,
    );
    expect(row).toEqual({ deleted: true, open: 1 });

    expect((await staff('/moderation/restore', { type: 'comment', id: cid })).status).toBe(200);
    expect(await listed()).toContain(`"${cid}"`);
  });
});
