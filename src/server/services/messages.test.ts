import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { MESSAGE_MAX } from '../../shared/messaging.ts';
import type { Db } from '../db/client.ts';
import { blockStatus, isBlocked, setBlock } from './blocks.ts';
import {
  cleanMessage,
  clearConversation,
  conversationWith,
  hideMessage,
  listConversations,
  listMessages,
  markRead,
  sendMessage,
  setMessageLike,
  totalUnread,
  updateSettings,
} from './messages.ts';
import { reset } from './rate-limit.ts';
import { fileReport } from './reports.ts';
import { setFollow } from './social.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));
beforeEach(async () => {
  await reset('im-');
});

const used = new Set<number>();

/** Two users untouched by earlier tests, with no follow, block or conversation between them. */
async function strangers(): Promise<{ a: number; b: number }> {
  const { rows } = await db.execute<{ id: number }>(sql`select id from users order by id`);
  const free = rows.map((r) => r.id).filter((id) => !used.has(id));
  for (const a of free) {
    for (const b of free) {
      if (a === b) continue;
      const { rows: links } = await db.execute(sql`
        select 1 from follows where (follower_id, followee_id) in ((${a}, ${b}), (${b}, ${a}))
        union all select 1 from conversations where (user_a, user_b) in ((${a}, ${b}), (${b}, ${a}))`);
      if (links.length > 0) continue;
      used.add(a);
      used.add(b);
      return { a, b };
    }
  }
  throw new Error('no two strangers left in the seed');
}

const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { kind?: string; key?: string }) => `${e.kind}: ${e.key}`,
  );

describe('cleanMessage', () => {
  it.each([
    ['empty', '', 'dm.empty.text'],
    ['blank', ' \n\t ', 'dm.empty.text'],
    ['one too long', '字'.repeat(MESSAGE_MAX + 1), 'dm.tooLong'],
    ['NUL', 'a\u0000b', 'error.dmControl'],
    ['ESC', 'a\u001bb', 'error.dmControl'],
  ])('refuses %s text', (_, text, message) => {
    expect(() => cleanMessage(text)).toThrow(message);
  });

  it('trims, keeps newlines and tabs, turns CRLF into LF and counts code points', () => {
    expect(cleanMessage('  你好\r\n\t世界  ')).toBe('你好\n\t世界');
    expect(cleanMessage('😀'.repeat(MESSAGE_MAX))).toBe('😀'.repeat(MESSAGE_MAX));
  });
});

describe('the one-message rule', () => {
  it('refuses a second message until the peer follows', async () => {
    const { a, b } = await strangers();
    const first = await sendMessage(a, b, '你好');
    expect(first.state).toMatchObject({ restricted: true, canSend: false, blockStatus: 0 });
    expect(await kindOf(sendMessage(a, b, '在吗'))).toBe('forbidden: dm.hint');
    await setFollow(b, a, true);
    expect((await conversationWith(a, b)).canSend).toBe(true);
    await sendMessage(a, b, '在吗');
    await sendMessage(a, b, '谢谢关注');
  });

  it('opens for both once the peer replies, even if that reply is deleted or cleared afterwards', async () => {
    const { a, b } = await strangers();
    await sendMessage(a, b, '你好');
    // The peer is not restricted: the sender has written to them.
    const reply = await sendMessage(b, a, '你好呀');
    expect(reply.state.restricted).toBe(false);
    await hideMessage(b, reply.message.id);
    await clearConversation(a, reply.message.conversationId);
    await sendMessage(a, b, '第二条');
    await sendMessage(b, a, '第二条回复');
    expect((await conversationWith(a, b)).restricted).toBe(false);
  });

  it("hiding one's own first message does not reopen the rule", async () => {
    const { a, b } = await strangers();
    const first = await sendMessage(a, b, '你好');
    await hideMessage(a, first.message.id);
    expect(await kindOf(sendMessage(a, b, '再来'))).toBe('forbidden: dm.hint');
  });

  it('lets exactly one of two concurrent first messages through', async () => {
    const { a, b } = await strangers();
    const results = await Promise.all(
      [sendMessage(a, b, '一'), sendMessage(a, b, '二'), sendMessage(a, b, '三')].map(kindOf),
    );
    expect(results.filter((r) => r === 'resolved')).toHaveLength(1);
    const { rows } = await db.execute(sql`select 1 from messages m join conversations c on c.id = m.conversation_id
      where c.user_a = ${Math.min(a, b)} and c.user_b = ${Math.max(a, b)}`);
    expect(rows).toHaveLength(1);
  });

  it('refuses messages to oneself and to unknown users', async () => {
    const { a } = await strangers();
    expect(await kindOf(sendMessage(a, a, '自言自语'))).toBe('invalid: error.dmSelf');
    expect(await kindOf(sendMessage(a, 999_999, '有人吗'))).toMatch(/^not_found/);
  });

  it('creates no conversation by looking at one', async () => {
    const { a, b } = await strangers();
    const state = await conversationWith(a, b);
    expect(state).toMatchObject({ id: 0, restricted: true, canSend: true, blockStatus: 0 });
    const { rows } = await db.execute(
      sql`select 1 from conversations where user_a = ${Math.min(a, b)} and user_b = ${Math.max(a, b)}`,
    );
    expect(rows).toHaveLength(0);
  });
});

describe('blocks', () => {
  it('stop messages in both directions and lift when undone', async () => {
    const { a, b } = await strangers();
    await setFollow(a, b, true);
    await setFollow(b, a, true);
    expect(await setBlock(a, b, true)).toBe(1);
    expect(await blockStatus(b, a)).toBe(2);
    expect(await isBlocked(b, a)).toBe(true);
    expect(await kindOf(sendMessage(a, b, '嗨'))).toBe('forbidden: error.dmYouBlocked');
    expect(await kindOf(sendMessage(b, a, '嗨'))).toBe('forbidden: dm.blockedMe');
    expect(await setBlock(b, a, true)).toBe(3);
    expect((await conversationWith(a, b)).canSend).toBe(false);
    // Per direction: A lifting theirs leaves B's in place.
    expect(await setBlock(a, b, false)).toBe(2);
    expect(await blockStatus(b, a)).toBe(1);
    expect(await kindOf(sendMessage(a, b, '嗨'))).toBe('forbidden: dm.blockedMe');
    expect(await setBlock(b, a, false)).toBe(0);
    expect(await isBlocked(a, b)).toBe(false);
    await sendMessage(a, b, '和好了');
    await sendMessage(b, a, '好的');
  });

  it('refuses blocking oneself', async () => {
    const { a } = await strangers();
    expect(await kindOf(setBlock(a, a, true))).toMatch(/^invalid/);
  });
});

describe('delete, clear, like and reply', () => {
  it('删除 hides a message for the caller only', async () => {
    const { a, b } = await strangers();
    await setFollow(b, a, true);
    const m1 = await sendMessage(a, b, '第一条');
    const m2 = await sendMessage(a, b, '第二条');
    const conv = m1.message.conversationId;
    await hideMessage(a, m1.message.id);
    expect((await listMessages(a, conv)).messages.map((m) => m.text)).toEqual(['第二条']);
    expect((await listMessages(b, conv)).messages.map((m) => m.text)).toEqual(['第一条', '第二条']);
    await hideMessage(a, m2.message.id);
    // Nothing left to show: the conversation leaves A's list, not B's.
    expect((await listConversations(a)).items.map((c) => c.id)).not.toContain(conv);
    expect((await listConversations(b)).items.map((c) => c.id)).toContain(conv);
  });

  it('删除聊天 clears for the caller; a newer message starts a fresh history', async () => {
    const { a, b } = await strangers();
    await setFollow(b, a, true);
    const m = await sendMessage(a, b, '旧消息');
    const conv = m.message.conversationId;
    await sendMessage(b, a, '旧回复');
    await clearConversation(a, conv);
    expect((await listConversations(a)).items.map((c) => c.id)).not.toContain(conv);
    expect((await listMessages(a, conv)).messages).toEqual([]);
    expect(await totalUnread(a)).toBe(0);
    expect((await listMessages(b, conv)).messages).toHaveLength(2);
    await sendMessage(b, a, '新消息');
    const row = (await listConversations(a)).items.find((c) => c.id === conv);
    expect(row).toMatchObject({ unread: 1, lastMessage: { text: '新消息', fromViewer: false } });
    expect((await listMessages(a, conv)).messages.map((x) => x.text)).toEqual(['新消息']);
  });

  it('only the recipient likes a message, and both see it', async () => {
    const { a, b } = await strangers();
    const m = await sendMessage(a, b, '点个赞');
    expect(await kindOf(setMessageLike(a, m.message.id, true))).toBe('forbidden: error.dmLikeOwn');
    expect((await setMessageLike(b, m.message.id, true)).liked).toBe(true);
    expect((await listMessages(a, m.message.conversationId)).messages[0]!.liked).toBe(true);
    expect((await setMessageLike(b, m.message.id, false)).liked).toBe(false);
  });

  it('a reply quotes a message of the same conversation, and not once the viewer hid it', async () => {
    const { a, b } = await strangers();
    const other = await strangers();
    const elsewhere = await sendMessage(other.a, other.b, '别处');
    const q = await sendMessage(a, b, '问题');
    const r = await sendMessage(b, a, '回答', q.message.id);
    expect(r.message.replyTo).toMatchObject({ id: q.message.id, text: '问题' });
    expect(await kindOf(sendMessage(b, a, '串台', elsewhere.message.id))).toBe('invalid: error.dmReplyMissing');
    await hideMessage(a, q.message.id);
    const seen = (await listMessages(a, q.message.conversationId)).messages.find((m) => m.id === r.message.id);
    expect(seen?.replyTo).toBeNull();
    expect((await listMessages(b, q.message.conversationId)).messages.at(-1)?.replyTo?.id).toBe(q.message.id);
  });
});

describe('list, unread, pin and mute', () => {
  it('orders pinned first then by the newest message; mute leaves the badge but not the row count', async () => {
    const { a, b } = await strangers();
    const { a: c } = await strangers();
    await setFollow(a, b, true);
    await setFollow(a, c, true);
    const fromB = await sendMessage(b, a, '来自B');
    const fromC = await sendMessage(c, a, '来自C');
    const [convB, convC] = [fromB.message.conversationId, fromC.message.conversationId];
    const order = async () =>
      (await listConversations(a, { count: 50 })).items.map((x) => x.id).filter((id) => id === convB || id === convC);
    expect(await order()).toEqual([convC, convB]);
    expect(await totalUnread(a)).toBe(2);

    await updateSettings(a, convB, { pinned: true });
    expect(await order()).toEqual([convB, convC]);
    expect((await listConversations(a, { count: 1 })).items[0]?.id).toBe(convB);

    const muted = await updateSettings(a, convC, { muted: true });
    expect(muted).toMatchObject({ muted: true, pinned: false });
    expect(await totalUnread(a)).toBe(1);
    expect((await listConversations(a, { count: 50 })).items.find((x) => x.id === convC)?.unread).toBe(1);

    expect(await markRead(a, convB)).toBe(0);
    expect((await listConversations(a, { count: 50 })).items.find((x) => x.id === convB)?.unread).toBe(0);
    await sendMessage(b, a, '又来了');
    expect(await totalUnread(a)).toBe(1);
    // Settings survive an unpin of the other flag.
    expect(await updateSettings(a, convB, { pinned: false })).toMatchObject({ pinned: false, muted: false });
  });

  it('pages by offset without repeats', async () => {
    const { rows } = await db.execute<{ id: number }>(
      sql`select user_a as id from conversations group by user_a order by count(*) desc limit 1`,
    );
    const me = rows[0]!.id;
    const all = (await listConversations(me, { count: 50 })).items.map((x) => x.id);
    const first = await listConversations(me, { count: 1 });
    const second = await listConversations(me, { count: 1, cursor: first.cursor });
    expect([...first.items, ...second.items].map((x) => x.id)).toEqual(all.slice(0, 2));
    expect(first.hasMore).toBe(all.length > 1);
  });
});

describe("someone else's conversation", () => {
  it('is answered as missing by every door', async () => {
    const { a, b } = await strangers();
    const { a: outsider } = await strangers();
    const m = await sendMessage(a, b, '私事');
    const conv = m.message.conversationId;
    for (const attempt of [
      () => listMessages(outsider, conv),
      () => markRead(outsider, conv),
      () => updateSettings(outsider, conv, { pinned: true }),
      () => clearConversation(outsider, conv),
      () => hideMessage(outsider, m.message.id),
      () => setMessageLike(outsider, m.message.id, true),
      () => listMessages(a, 999_999),
      () => fileReport(outsider, 'message', m.message.id, 'spam'),
      () => fileReport(outsider, 'conversation', conv, 'spam'),
    ]) {
      expect(await kindOf(attempt())).toMatch(/^not_found/);
    }
    await fileReport(b, 'message', m.message.id, 'spam');
    await fileReport(b, 'user', a, 'abuse');
    const { rows } = await db.execute(
      sql`select target_type, reason from reports where reporter_id = ${b} order by id`,
    );
    expect(rows).toEqual([
      { target_type: 'message', reason: 'spam' },
      { target_type: 'user', reason: 'abuse' },
    ]);
  });
});
