/** 私信 through the Family A doors: shapes, the rules as clients meet them, bad input, rate limits and the `dm` event. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { EventHub, useHub } from '../../src/server/realtime/events.ts';
import { MESSAGE_MAX } from '../../src/shared/messaging.ts';
import { IM_WRITE_LIMIT, MESSAGE_BURST } from '../../src/server/services/messages.ts';
import { reset } from '../../src/server/services/rate-limit.ts';
import { REPORT_DAILY } from '../../src/server/services/reports.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';
import { call, expectErrorA, ok, tokenFor, type Answer } from './helpers.ts';

const IM = '/aweme/v1/web/im';
let testDb: TestDb;
let hub: EventHub;
let previous: EventHub | undefined;

interface User {
  id: number;
  sec: string;
  token: string;
}

beforeAll(async () => {
  process.env.API_ANON_CACHE = 'off';
  testDb = await freshDb();
  hub = new EventHub(testDb.url);
  previous = useHub(hub);
});
afterAll(async () => {
  useHub(previous);
  await hub.close();
  await testDb.close();
});
beforeEach(async () => {
  await reset('im-');
  await reset('report:');
});

const used = new Set<number>();

/** Two users untouched by earlier tests, with no follow or conversation between them. */
async function pair(): Promise<[User, User]> {
  const taken = `{${[...used, 0].join(',')}}`;
  const { rows } = await testDb.db.execute<{ a: number; b: number }>(sql`
    select x.id as a, y.id as b from users x join users y on y.id > x.id
    where not (x.id = any(${taken}::int[])) and not (y.id = any(${taken}::int[]))
      and not exists (select 1 from follows f where (f.follower_id, f.followee_id) in ((x.id, y.id), (y.id, x.id)))
      and not exists (select 1 from conversations c where c.user_a = x.id and c.user_b = y.id)
    order by x.id, y.id limit 1`);
  const r = rows[0];
  if (!r) throw new Error('no two strangers left');
  used.add(r.a).add(r.b);
  return [await user(r.a), await user(r.b)];
}

async function user(id: number): Promise<User> {
  const { rows } = await testDb.db.execute<{ sec_uid: string }>(sql`select sec_uid from users where id = ${id}`);
  return { id, sec: rows[0]!.sec_uid, token: await tokenFor(id) };
}

const send = (from: User, to: User, text: string, extra: Record<string, string | number> = {}) =>
  ok('POST', `${IM}/message/send/`, { token: from.token, form: { sec_user_id: to.sec, text, ...extra } });
const follow = (from: User, to: User) =>
  ok('POST', '/aweme/v1/web/commit/follow/user/', { token: from.token, form: { sec_user_id: to.sec, type: 1 } });
const post = (who: User, path: string, form: Record<string, string | number>) =>
  call('POST', `/api${path}`, { token: who.token, form });
const get = (who: User, path: string, query: Record<string, string | number> = {}) =>
  call('GET', `/api${path}`, { token: who.token, query });
const list = async (who: User) =>
  (await ok('GET', `${IM}/conversation/list/`, { token: who.token, query: { count: 50 } })) as {
    conversations: any[];
    total_unread: number;
  };
const texts = async (who: User, conversationId: string) =>
  (
    await ok('GET', `${IM}/message/list/`, { token: who.token, query: { conversation_id: conversationId } })
  ).messages.map((m: { text: string }) => m.text);

describe('send and the one-message rule', () => {
  it('answers the message and the state; a second message waits for a follow', async () => {
    const [a, b] = await pair();
    const before = await ok('GET', `${IM}/conversation/detail/`, { token: a.token, query: { sec_user_id: b.sec } });
    expect(before.conversation).toMatchObject({
      conversation_id: '0',
      restricted: 1,
      can_send: 1,
      block_status: 0,
      peer: { sec_uid: b.sec },
    });

    const first = await send(a, b, '  你好 ');
    expect(first.message).toMatchObject({ text: '你好', is_self: 1, sender: a.sec, digg: 0, reply_to: null });
    expect(first.conversation).toMatchObject({ restricted: 1, can_send: 0 });
    expect(first.conversation.conversation_id).toBe(first.message.conversation_id);

    const refused = await post(a, `${IM}/message/send/`, { sec_user_id: b.sec, text: '在吗' });
    expectErrorA(refused, 403, 9);
    expect(refused.body.status_msg).toBe(t('dm.hint'));

    await follow(b, a);
    const second = await send(a, b, '在吗');
    expect(second.conversation).toMatchObject({
      restricted: 0,
      can_send: 1,
      peer: { follower_status: 1, follow_status: 0 },
    });
  });

  it('opens once the peer replies, and the reply quotes the first message', async () => {
    const [a, b] = await pair();
    const first = await send(a, b, '问题');
    const reply = await send(b, a, '回答', { reply_id: first.message.message_id });
    expect(reply.message.reply_to).toMatchObject({ message_id: first.message.message_id, text: '问题' });
    expect(reply.conversation.restricted).toBe(0);
    await send(a, b, '谢谢');
    expect(await texts(b, first.message.conversation_id)).toEqual(['问题', '回答', '谢谢']);
  });

  it('is refused while either side blocks the other', async () => {
    const [a, b] = await pair();
    await follow(a, b);
    await follow(b, a);
    expect(
      (await ok('POST', '/aweme/v1/web/user/block/', { token: b.token, form: { sec_user_id: a.sec, block: 1 } }))
        .block_status,
    ).toBe(1);
    const fromA = await post(a, `${IM}/message/send/`, { sec_user_id: b.sec, text: '嗨' });
    expectErrorA(fromA, 403, 9);
    expect(fromA.body.status_msg).toBe(t('dm.blockedMe'));
    const fromB = await post(b, `${IM}/message/send/`, { sec_user_id: a.sec, text: '嗨' });
    expect(fromB.body.status_msg).toBe(t('error.dmYouBlocked'));
    const detail = await ok('GET', `${IM}/conversation/detail/`, { token: a.token, query: { sec_user_id: b.sec } });
    expect(detail.conversation).toMatchObject({ block_status: 2, can_send: 0 });
    expect(
      (await ok('POST', '/aweme/v1/web/user/block/', { token: b.token, form: { sec_user_id: a.sec, block: 0 } }))
        .block_status,
    ).toBe(0);
    await send(a, b, '嗨');
  });
});

describe('delete, clear, settings and read marks', () => {
  it('删除 hides for the caller; 删除聊天 clears for the caller until a newer message', async () => {
    const [a, b] = await pair();
    await follow(b, a);
    const m1 = await send(a, b, '一');
    await send(a, b, '二');
    const conv = m1.message.conversation_id;
    await ok('POST', `${IM}/message/delete/`, { token: a.token, form: { message_id: m1.message.message_id } });
    expect(await texts(a, conv)).toEqual(['二']);
    expect(await texts(b, conv)).toEqual(['一', '二']);

    await ok('POST', `${IM}/conversation/delete/`, { token: b.token, form: { conversation_id: conv } });
    expect((await list(b)).conversations.map((c) => c.conversation_id)).not.toContain(conv);
    expect(await texts(b, conv)).toEqual([]);
    await send(a, b, '三');
    const row = (await list(b)).conversations.find((c) => c.conversation_id === conv);
    expect(row).toMatchObject({ unread_count: 1, last_message: { text: '三', is_self: 0 }, peer: { sec_uid: a.sec } });
    expect(await texts(b, conv)).toEqual(['三']);
  });

  it('pin orders, mute leaves the badge, read clears the count', async () => {
    const [a, b] = await pair();
    const [c] = await pair();
    const convB = (await send(b, a, '来自B')).message.conversation_id;
    const convC = (await send(c, a, '来自C')).message.conversation_id;
    const ids = async () =>
      (await list(a)).conversations.map((x) => x.conversation_id).filter((x) => x === convB || x === convC);
    expect(await ids()).toEqual([convC, convB]);
    const unread0 = (await ok('GET', `${IM}/unread/`, { token: a.token })).total_unread;

    const pinned = await ok('POST', `${IM}/conversation/setting/`, {
      token: a.token,
      form: { conversation_id: convB, stick_on_top: 1 },
    });
    expect(pinned.conversation).toMatchObject({ stick_on_top: 1, mute: 0 });
    expect(await ids()).toEqual([convB, convC]);

    await ok('POST', `${IM}/conversation/setting/`, { token: a.token, form: { conversation_id: convC, mute: 1 } });
    expect((await ok('GET', `${IM}/unread/`, { token: a.token })).total_unread).toBe(unread0 - 1);
    expect((await list(a)).conversations.find((x) => x.conversation_id === convC)).toMatchObject({
      mute: 1,
      unread_count: 1,
    });

    const read = await ok('POST', `${IM}/conversation/read/`, { token: a.token, form: { conversation_id: convB } });
    expect(read.total_unread).toBe(unread0 - 2);
    expect((await list(a)).conversations.find((x) => x.conversation_id === convB)).toMatchObject({
      unread_count: 0,
      stick_on_top: 1,
    });
  });

  it('点赞 by the recipient only; both see digg', async () => {
    const [a, b] = await pair();
    const m = await send(a, b, '赞我');
    expectErrorA(await post(a, `${IM}/message/digg/`, { message_id: m.message.message_id, type: 1 }), 403, 9);
    expect(
      (await ok('POST', `${IM}/message/digg/`, { token: b.token, form: { message_id: m.message.message_id, type: 1 } }))
        .message,
    ).toMatchObject({ digg: 1, is_self: 0 });
    const seen = await ok('GET', `${IM}/message/list/`, {
      token: a.token,
      query: { conversation_id: m.message.conversation_id },
    });
    expect(seen.messages[0]).toMatchObject({ digg: 1, is_self: 1 });
  });

  it('pages messages before max_cursor, oldest first', async () => {
    const [a, b] = await pair();
    await follow(b, a);
    const sent = [];
    for (const t of ['1', '2', '3', '4', '5']) sent.push((await send(a, b, t)).message);
    const conv = sent[0].conversation_id;
    const newest = await ok('GET', `${IM}/message/list/`, {
      token: b.token,
      query: { conversation_id: conv, count: 2 },
    });
    expect(newest.messages.map((m: { text: string }) => m.text)).toEqual(['4', '5']);
    expect(newest).toMatchObject({ has_more: 1, max_cursor: Number(sent[3].message_id) });
    const older = await ok('GET', `${IM}/message/list/`, {
      token: b.token,
      query: { conversation_id: conv, count: 3, max_cursor: newest.max_cursor },
    });
    expect(older.messages.map((m: { text: string }) => m.text)).toEqual(['1', '2', '3']);
    expect(older.has_more).toBe(0);
  });
});

describe('doors that refuse', () => {
  it("answers 404 for an unknown and for someone else's conversation or message", async () => {
    const [a, b] = await pair();
    const [outsider] = await pair();
    const m = await send(a, b, '私事');
    const conv = m.message.conversation_id;
    const mid = m.message.message_id;
    for (const id of [conv, '999999']) {
      expectErrorA(await get(outsider, `${IM}/message/list/`, { conversation_id: id }), 404, 4);
      expectErrorA(await post(outsider, `${IM}/conversation/read/`, { conversation_id: id }), 404, 4);
      expectErrorA(await post(outsider, `${IM}/conversation/setting/`, { conversation_id: id, mute: 1 }), 404, 4);
      expectErrorA(await post(outsider, `${IM}/conversation/setting/`, { conversation_id: id }), 404, 4);
      expectErrorA(await post(outsider, `${IM}/conversation/delete/`, { conversation_id: id }), 404, 4);
      expectErrorA(
        await post(outsider, '/aweme/v1/web/report/', { object_type: 'conversation', object_id: id, reason: 'spam' }),
        404,
        4,
      );
    }
    for (const id of [mid, '999999']) {
      expectErrorA(await post(outsider, `${IM}/message/digg/`, { message_id: id, type: 1 }), 404, 4);
      expectErrorA(await post(outsider, `${IM}/message/delete/`, { message_id: id }), 404, 4);
      expectErrorA(
        await post(outsider, '/aweme/v1/web/report/', { object_type: 'message', object_id: id, reason: 'spam' }),
        404,
        4,
      );
    }
    // The outsider's attempts changed nothing for the two.
    expect(await texts(b, conv)).toEqual(['私事']);
    await ok('POST', '/aweme/v1/web/report/', {
      token: b.token,
      form: { object_type: 'message', object_id: mid, reason: 'abuse' },
    });
    const { rows } = await testDb.db.execute(
      sql`select target_type, target_id, reason from reports where reporter_id = ${b.id}`,
    );
    expect(rows).toEqual([{ target_type: 'message', target_id: Number(mid), reason: 'abuse' }]);
  });

  it('documents every door in openapi.json with its form fields', async () => {
    const doc = await ok('GET', '/openapi.json');
    const send = doc.paths[`${IM}/message/send/`].post;
    expect(Object.keys(send.requestBody.content)).toContain('application/x-www-form-urlencoded');
    for (const path of [`${IM}/conversation/list/`, `${IM}/message/list/`, `${IM}/unread/`])
      expect(doc.paths[path].get.security).toBeDefined();
    expect(doc.paths['/aweme/v1/web/report/'].post).toBeDefined();
  });

  it('answers 401 without a login', async () => {
    expectErrorA(await call('GET', `/api${IM}/unread/`), 401, 8);
    expectErrorA(await call('POST', `/api${IM}/message/send/`, { form: { sec_user_id: 'x', text: 'hi' } }), 401, 8);
  });

  it('answers bad input with a 4xx in the envelope, never a 500', async () => {
    const [a, b] = await pair();
    const conv = (await send(a, b, '第一条')).message.conversation_id;
    const expectMsg = (res: Answer, status: number, message?: string) => {
      expectErrorA(res, status, status === 404 ? 4 : 2);
      if (message) expect(res.body.status_msg).toBe(message);
    };
    const sendTo = (text: string, extra: Record<string, string | number> = {}) =>
      post(b, `${IM}/message/send/`, { sec_user_id: a.sec, text, ...extra });
    expectMsg(await sendTo('   '), 400, t('dm.empty.text'));
    expectMsg(await sendTo('字'.repeat(MESSAGE_MAX + 1)), 400, t('dm.tooLong', { max: MESSAGE_MAX }));
    expectMsg(await sendTo('x'.repeat(10 * 1024)), 400, t('dm.tooLong', { max: MESSAGE_MAX }));
    // NUL is refused at the door, as in every text field, before the message's own rules.
    expectMsg(await sendTo('a\u0000b'), 400, t('error.badText'));
    expectMsg(await sendTo('ok', { reply_id: 'abc' }), 400);
    expectMsg(await sendTo('ok', { reply_id: 999_999 }), 400, t('error.dmReplyMissing'));
    expectMsg(await post(b, `${IM}/message/send/`, { sec_user_id: b.sec, text: '自己' }), 400, t('error.dmSelf'));
    expectMsg(await post(b, `${IM}/message/send/`, { sec_user_id: 'no-such-user', text: 'hi' }), 404);
    expectMsg(await post(b, `${IM}/message/send/`, { sec_user_id: 'bad uid!', text: 'hi' }), 400);
    expectMsg(await post(b, `${IM}/message/send/`, { sec_user_id: a.sec }), 400);
    expectMsg(await get(b, `${IM}/conversation/list/`, { count: 51 }), 400);
    expectMsg(await get(b, `${IM}/conversation/list/`, { cursor: -1 }), 400);
    expectMsg(await get(b, `${IM}/conversation/detail/`, { sec_user_id: b.sec }), 400, t('error.dmSelf'));
    expectMsg(await get(b, `${IM}/conversation/detail/`, {}), 400);
    expectMsg(await get(b, `${IM}/message/list/`, { conversation_id: 'x' }), 400);
    expectMsg(await get(b, `${IM}/message/list/`, { conversation_id: conv, max_cursor: '1.5' }), 400);
    expectMsg(await post(b, `${IM}/message/digg/`, { message_id: 1, type: 2 }), 400);
    expectMsg(await post(b, `${IM}/message/digg/`, { message_id: '99999999999', type: 1 }), 400);
    expectMsg(await post(b, `${IM}/message/delete/`, { message_id: '' }), 400);
    expectMsg(await post(b, `${IM}/conversation/read/`, { conversation_id: 0 }), 400);
    expectMsg(await post(b, `${IM}/conversation/setting/`, { conversation_id: conv, mute: 'yes' }), 400);
    expectMsg(await post(b, `${IM}/conversation/delete/`, { conversation_id: '\u0000' }), 400);
    expectMsg(await post(b, '/aweme/v1/web/user/block/', { sec_user_id: a.sec, block: 5 }), 400);
    expectMsg(await post(b, '/aweme/v1/web/user/block/', { sec_user_id: b.sec, block: 1 }), 400);
    // Works, comments and live rooms are reportable too; a series is not.
    expectMsg(await post(b, '/aweme/v1/web/report/', { object_type: 'mix', object_id: 1, reason: 'spam' }), 400);
    expectMsg(await post(b, '/aweme/v1/web/report/', { object_type: 'user', object_id: a.id, reason: 'meh' }), 400);
    expectMsg(await post(b, '/aweme/v1/web/report/', { object_type: 'user', object_id: 999_999, reason: 'spam' }), 404);
  });
});

describe('rate limits', () => {
  it(`sends at most ${MESSAGE_BURST.limit} messages per burst, then 429 with Retry-After`, async () => {
    const [a, b] = await pair();
    await follow(b, a);
    for (let i = 0; i < MESSAGE_BURST.limit; i++) await send(a, b, `消息${i}`);
    const refused = await post(a, `${IM}/message/send/`, { sec_user_id: b.sec, text: '再来' });
    expectErrorA(refused, 429, 7);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('caps other IM writes and reports', async () => {
    const [a, b] = await pair();
    const m = await send(b, a, '赞');
    for (let i = 0; i < IM_WRITE_LIMIT.limit; i++)
      await post(a, `${IM}/message/digg/`, { message_id: m.message.message_id, type: i % 2 });
    const refused = await post(a, `${IM}/message/digg/`, { message_id: m.message.message_id, type: 1 });
    expectErrorA(refused, 429, 7);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    for (let i = 0; i < REPORT_DAILY.limit; i++)
      await ok('POST', '/aweme/v1/web/report/', {
        token: a.token,
        form: { object_type: 'user', object_id: b.id, reason: 'spam' },
      });
    const tooMany = await post(a, '/aweme/v1/web/report/', { object_type: 'user', object_id: b.id, reason: 'spam' });
    expectErrorA(tooMany, 429, 7);
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});

/** Opens `/api/events` for a user and reads it as a client would. */
async function events(who: User) {
  const controller = new AbortController();
  const response = await handleApi(
    new Request('http://shanying.test/api/events', { headers: { token: who.token }, signal: controller.signal }),
  );
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  /** The data of every `dm` event so far. */
  const dms = () => [...text.matchAll(/event: dm\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
  return {
    dms,
    async until(pred: (all: any[]) => boolean, ms = 3000): Promise<any[]> {
      const deadline = Date.now() + ms;
      while (!pred(dms())) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching dm within ${ms} ms in ${JSON.stringify(text)}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk && !chunk.done) text += decoder.decode(chunk.value, { stream: true });
      }
      return dms();
    },
    async close() {
      await reader.cancel();
      controller.abort();
    },
  };
}

describe('the dm event of /api/events', () => {
  it('rings the recipient with the message and the badge; not when muted', async () => {
    const [a, b] = await pair();
    await follow(b, a);
    const stream = await events(b);
    const [hello] = await stream.until((all) => all.length >= 1);
    expect(hello).toEqual({ unread: hello.unread, conversation_id: null, message: null, alert: false });

    const sent = await send(a, b, '实时');
    const got = (await stream.until((all) => all.some((d) => d.message?.text === '实时'))).find(
      (d) => d.message?.text === '实时',
    );
    expect(got).toMatchObject({
      unread: hello.unread + 1,
      conversation_id: sent.message.conversation_id,
      alert: true,
      message: { is_self: 0, sender: a.sec },
    });

    await ok('POST', `${IM}/conversation/setting/`, {
      token: b.token,
      form: { conversation_id: sent.message.conversation_id, mute: 1 },
    });
    await send(a, b, '免打扰');
    const quiet = (await stream.until((all) => all.some((d) => d.message?.text === '免打扰'))).find(
      (d) => d.message?.text === '免打扰',
    );
    // Muted: no ring, and the muted conversation leaves the badge.
    expect(quiet).toMatchObject({ alert: false, unread: hello.unread });
    await stream.close();
  });

  it("tells the sender's own stream without ringing", async () => {
    const [a, b] = await pair();
    const stream = await events(a);
    await stream.until((all) => all.length >= 1);
    await send(a, b, '我发的');
    const mine = (await stream.until((all) => all.some((d) => d.message?.text === '我发的'))).find(
      (d) => d.message?.text === '我发的',
    );
    expect(mine).toMatchObject({ alert: false, message: { is_self: 1 } });
    await stream.close();
  });
});
