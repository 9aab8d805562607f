/**
 * Direct messages (私信): conversations per pair, the one-message rule, blocks, per-user deletes, clears, settings and
 * read marks. Every rule is checked here, inside the transaction that stores the message.
 */
import { sql, type SQL } from 'drizzle-orm';
import { MESSAGE_MAX } from '../../shared/messaging.ts';
import { collapseBlankLines } from '../../shared/blank-lines.ts';
import { db } from '../db/client.ts';
import { claimOnce, type OnceKey } from './idempotency.ts';
import type { DbOrTx } from '../db/types.ts';
import { publish, userTopic } from '../realtime/events.ts';
import { blockStatus, type BlockStatus } from './blocks.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { IM_WRITE_LIMIT } from './im-limits.ts';
import { enforce } from './rate-limit.ts';
import { cursorKey, encodeCursor, finite } from './list-cursor.ts';
import { pageLimit, skipOf, type Page } from './video-cards.ts';
import { assertCanSpeak } from '../staff/sanctions.ts';
import { flagWatched } from '../staff/watched-words.ts';

/** Messages one user may send in a short burst. */
export const MESSAGE_BURST = { limit: 10, windowMs: 10_000 };
/** Messages one user may send per hour. */
export const MESSAGE_HOURLY = { limit: 300, windowMs: 3_600_000 };
export { IM_WRITE_LIMIT };

/** The hub event type of every inbox change. */
export const DM_EVENT = 'dm';

/** What a `dm` hub event carries: which conversation changed and, for a new or liked message, which message. */
export interface DmHubData {
  conversationId: number;
  messageId: number | null;
  /** Only a new message may ring. */
  kind: 'message' | 'like' | 'hide' | 'read' | 'setting' | 'clear';
}

export interface ImPeer {
  id: number;
  secUid: string;
  nickname: string;
  avatar: string;
  /** The viewer follows the peer. */
  following: boolean;
  /** The peer follows the viewer. */
  followedBy: boolean;
}

export interface MessageView {
  id: number;
  conversationId: number;
  senderId: number;
  senderSecUid: string;
  text: string;
  createdAt: Date;
  liked: boolean;
  /** The quoted message, null when there is none or the viewer can no longer see it. */
  replyTo: { id: number; text: string; nickname: string } | null;
}

export interface ConversationState {
  /** 0 while the pair has exchanged nothing. */
  id: number;
  peer: ImPeer;
  muted: boolean;
  pinned: boolean;
  restricted: boolean;
  canSend: boolean;
  blockStatus: BlockStatus;
}

export interface ConversationRow {
  id: number;
  peer: ImPeer;
  lastMessage: { text: string; createdAt: Date; fromViewer: boolean };
  unread: number;
  muted: boolean;
  pinned: boolean;
}

/** A message as stored (blank lines collapsed, trimmed), checked: 1..MESSAGE_MAX code points, no control characters but newline and tab. */
export function cleanMessage(raw: string): string {
  // Browsers submit a textarea's line breaks as CRLF; collapseBlankLines makes them '\n'.
  const text = collapseBlankLines(raw).trim();
  if (text.length === 0) throw invalid('dm.empty.text');
  if ([...text].length > MESSAGE_MAX) throw invalid('dm.tooLong', { max: MESSAGE_MAX });
  // PostgreSQL refuses NUL outright; the others would break a chat bubble or a terminal.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0008\u000B-\u001F\u007F]/.test(text)) throw invalid('error.dmControl');
  return text;
}

const pairOf = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

/** Visible to `me`: not removed, not hidden by me, newer than my clear of that conversation. */
function visible(me: number, m: SQL, clearedAt: SQL): SQL {
  return sql`${m}.deleted_at is null
    and (${clearedAt} is null or ${m}.created_at > ${clearedAt})
    and not exists (select 1 from message_hides h where h.message_id = ${m}.id and h.user_id = ${me})`;
}

/** My cleared_at for a conversation id expression. */
const clearedOf = (me: number, conv: SQL) =>
  sql`(select s.cleared_at from conversation_settings s where s.conversation_id = ${conv} and s.user_id = ${me})`;

/** Unread in a conversation: the peer's visible messages after my read mark and my clear. */
function unreadIn(me: number, conv: SQL, clearedAt: SQL, lastReadAt: SQL): SQL {
  return sql`(select count(*)::int from messages u where u.conversation_id = ${conv} and u.sender_id <> ${me}
    and ${visible(me, sql`u`, clearedAt)}
    and u.created_at > coalesce(greatest(${clearedAt}, ${lastReadAt}), '-infinity'::timestamptz))`;
}

async function peerOf(q: DbOrTx, me: number, peerId: number): Promise<ImPeer> {
  const { rows } = await q.execute<{
    id: number;
    sec_uid: string;
    nickname: string;
    avatar: string;
    following: boolean;
    followed_by: boolean;
  }>(sql`
    select u.id, u.sec_uid, u.nickname, u.avatar,
      exists (select 1 from follows f where f.follower_id = ${me} and f.followee_id = u.id) as following,
      exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${me}) as followed_by
    from users u where u.id = ${peerId}`);
  const r = rows[0];
  if (!r) throw notFound('error.userNotFound');
  return {
    id: r.id,
    secUid: r.sec_uid,
    nickname: r.nickname,
    avatar: r.avatar,
    following: r.following,
    followedBy: r.followed_by,
  };
}

/** The conversation `me` takes part in, or 404 (someone else's is not told apart from a missing one). */
async function ownConversation(
  q: DbOrTx,
  me: number,
  conversationId: number,
  lock = false,
): Promise<{ id: number; peerId: number }> {
  const { rows } = await q.execute<{ id: number; peer_id: number }>(sql`
    select id, case when user_a = ${me} then user_b else user_a end as peer_id
    from conversations where id = ${conversationId} and (user_a = ${me} or user_b = ${me})
    ${lock ? sql`for update` : sql``}`);
  const r = rows[0];
  if (!r) throw notFound('error.conversationNotFound');
  return { id: r.id, peerId: r.peer_id };
}

async function conversationIdOf(q: DbOrTx, a: number, b: number): Promise<number> {
  const [x, y] = pairOf(a, b);
  const { rows } = await q.execute<{ id: number }>(
    sql`select id from conversations where user_a = ${x} and user_b = ${y}`,
  );
  return rows[0]?.id ?? 0;
}

/** The viewer's standing with a peer, read in `q` (inside the send transaction, after the lock). */
async function stateWith(q: DbOrTx, me: number, peerId: number): Promise<ConversationState> {
  // One after another: inside a transaction they share one connection.
  const peer = await peerOf(q, me, peerId);
  const status = await blockStatus(me, peerId, q);
  const conversationId = await conversationIdOf(q, me, peerId);
  const { rows } = await q.execute<{ muted: boolean; pinned: boolean; peer_wrote: boolean; mine: number }>(sql`
    select coalesce((select muted from conversation_settings where conversation_id = ${conversationId} and user_id = ${me}), false) as muted,
      coalesce((select pinned from conversation_settings where conversation_id = ${conversationId} and user_id = ${me}), false) as pinned,
      exists (select 1 from messages where conversation_id = ${conversationId} and sender_id = ${peerId}) as peer_wrote,
      (select count(*)::int from messages where conversation_id = ${conversationId} and sender_id = ${me}) as mine`);
  const r = rows[0]!;
  // Every message counts here, deleted or cleared ones too: hiding one's own message must not reopen the rule.
  const restricted = !peer.followedBy && !r.peer_wrote;
  return {
    id: conversationId,
    peer,
    muted: r.muted,
    pinned: r.pinned,
    restricted,
    canSend: status === 0 && !(restricted && r.mine >= 1),
    blockStatus: status,
  };
}

/** The viewer's standing with `peerId` before or after the first message (the reply pane's header). */
export async function conversationWith(me: number, peerId: number): Promise<ConversationState> {
  if (me === peerId) throw invalid('error.dmSelf');
  return stateWith(db(), me, peerId);
}

/** The state of one of the viewer's conversations by id. */
export async function conversationState(me: number, conversationId: number): Promise<ConversationState> {
  const c = await ownConversation(db(), me, conversationId);
  return stateWith(db(), me, c.peerId);
}

async function announce(q: DbOrTx, userIds: number[], data: DmHubData): Promise<void> {
  for (const id of userIds) await publish(userTopic(id), { type: DM_EVENT, data }, q);
}

type MessageRow = {
  id: number;
  conversation_id: number;
  sender_id: number;
  sender_sec_uid: string;
  text: string;
  created_at: Date | string;
  liked: boolean;
  reply_id: number | null;
  reply_text: string | null;
  reply_nickname: string | null;
};

const toView = (r: MessageRow): MessageView => ({
  id: r.id,
  conversationId: r.conversation_id,
  senderId: r.sender_id,
  senderSecUid: r.sender_sec_uid,
  text: r.text,
  createdAt: new Date(r.created_at),
  liked: r.liked,
  replyTo: r.reply_id === null ? null : { id: r.reply_id, text: r.reply_text ?? '', nickname: r.reply_nickname ?? '' },
});

/** Messages of one conversation as `me` sees them, by `where` on `m`, newest first. */
async function selectMessages(
  q: DbOrTx,
  me: number,
  conversationId: number,
  where: SQL,
  limit: number,
): Promise<MessageView[]> {
  const cleared = clearedOf(me, sql`${conversationId}`);
  const { rows } = await q.execute<MessageRow>(sql`
    select m.id, m.conversation_id, m.sender_id, su.sec_uid as sender_sec_uid, m.text, m.created_at, m.liked_at is not null as liked,
      r.id as reply_id, r.text as reply_text, ru.nickname as reply_nickname
    from messages m
    join users su on su.id = m.sender_id
    left join messages r on r.id = m.reply_to_id and r.conversation_id = m.conversation_id and ${visible(me, sql`r`, cleared)}
    left join users ru on ru.id = r.sender_id
    where m.conversation_id = ${conversationId} and ${visible(me, sql`m`, cleared)} and ${where}
    order by m.id desc limit ${limit}`);
  return rows.map(toView);
}

/** One message as `me` sees it; null when it is not theirs to see. */
export async function messageFor(me: number, messageId: number, q: DbOrTx = db()): Promise<MessageView | null> {
  const { rows } = await q.execute<{ conversation_id: number }>(sql`
    select m.conversation_id from messages m join conversations c on c.id = m.conversation_id
    where m.id = ${messageId} and (c.user_a = ${me} or c.user_b = ${me})`);
  if (!rows[0]) return null;
  const [view] = await selectMessages(q, me, rows[0].conversation_id, sql`m.id = ${messageId}`, 1);
  return view ?? null;
}

/** Sends a message to `peerId`; the first message creates the conversation. */
export async function sendMessage(
  me: number,
  peerId: number,
  rawText: string,
  replyToId?: number,
  once?: OnceKey,
): Promise<{ message: MessageView; state: ConversationState }> {
  if (me === peerId) throw invalid('error.dmSelf');
  const text = cleanMessage(rawText);
  await assertCanSpeak(me);
  await enforce(`im-send:${me}`, MESSAGE_BURST.limit, MESSAGE_BURST.windowMs);
  await enforce(`im-send-hour:${me}`, MESSAGE_HOURLY.limit, MESSAGE_HOURLY.windowMs);
  const sent = await db().transaction(async (tx) => {
    await peerOf(tx, me, peerId);
    const [a, b] = pairOf(me, peerId);
    await tx.execute(
      sql`insert into conversations (user_a, user_b) values (${a}, ${b}) on conflict (user_a, user_b) do nothing`,
    );
    // The lock serialises concurrent sends of the pair, so two cannot both pass the one-message rule.
    const { rows } = await tx.execute<{ id: number }>(
      sql`select id from conversations where user_a = ${a} and user_b = ${b} for update`,
    );
    const conversationId = rows[0]!.id;
    const before = await stateWith(tx, me, peerId);
    if (before.blockStatus & 1) throw forbidden('error.dmYouBlocked');
    if (before.blockStatus & 2) throw forbidden('dm.blockedMe');
    if (!before.canSend) throw forbidden('dm.hint');
    if (replyToId !== undefined) {
      const quoted = await selectMessages(tx, me, conversationId, sql`m.id = ${replyToId}`, 1);
      if (quoted.length === 0) throw invalid('error.dmReplyMissing');
    }
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into messages (conversation_id, sender_id, text, reply_to_id) values (${conversationId}, ${me}, ${text}, ${replyToId ?? null})
      returning id`);
    const messageId = inserted.rows[0]!.id;
    await claimOnce(tx, once, messageId);
    await tx.execute(sql`update conversations set last_message_at = now() where id = ${conversationId}`);
    await announce(tx, [peerId, me], { conversationId, messageId, kind: 'message' });
    const [message] = await selectMessages(tx, me, conversationId, sql`m.id = ${messageId}`, 1);
    return { message: message!, state: await stateWith(tx, me, peerId) };
  });
  await flagWatched('message', sent.message.id, text);
  return sent;
}

/** A page of `me`'s messages in a conversation before message id `before` (0 = newest), oldest first. */
export async function listMessages(
  me: number,
  conversationId: number,
  opts: { before?: number; count?: number } = {},
): Promise<{ messages: MessageView[]; hasMore: boolean }> {
  await ownConversation(db(), me, conversationId);
  const limit = Math.min(Math.max(opts.count ?? 20, 1), 50);
  const rows = await selectMessages(
    db(),
    me,
    conversationId,
    opts.before ? sql`m.id < ${opts.before}` : sql`true`,
    limit + 1,
  );
  return { messages: rows.slice(0, limit).reverse(), hasMore: rows.length > limit };
}

async function writeLimit(me: number): Promise<void> {
  await enforce(`im-write:${me}`, IM_WRITE_LIMIT.limit, IM_WRITE_LIMIT.windowMs);
}

/** The conversation of a message `me` can see, or 404. */
async function visibleMessage(
  q: DbOrTx,
  me: number,
  messageId: number,
): Promise<{ conversationId: number; peerId: number; senderId: number }> {
  const view = await messageFor(me, messageId, q);
  if (!view) throw notFound('error.messageNotFound');
  const c = await ownConversation(q, me, view.conversationId);
  return { conversationId: c.id, peerId: c.peerId, senderId: view.senderId };
}

/** 点赞 by the recipient of a message (the sender may not like their own); both sides see it. */
export async function setMessageLike(me: number, messageId: number, liked: boolean): Promise<MessageView> {
  await writeLimit(me);
  return db().transaction(async (tx) => {
    const m = await visibleMessage(tx, me, messageId);
    if (m.senderId === me) throw forbidden('error.dmLikeOwn');
    await tx.execute(
      sql`update messages set liked_at = ${liked ? sql`coalesce(liked_at, now())` : sql`null`} where id = ${messageId}`,
    );
    await announce(tx, [m.peerId, me], { conversationId: m.conversationId, messageId, kind: 'like' });
    return (await messageFor(me, messageId, tx))!;
  });
}

/** 删除: hides a message for `me` only; the peer still sees it. */
export async function hideMessage(me: number, messageId: number): Promise<void> {
  await writeLimit(me);
  await db().transaction(async (tx) => {
    // Not `visibleMessage`: hiding twice, or hiding what a clear already took away, must stay a quiet success.
    const { rows } = await tx.execute<{ conversation_id: number }>(sql`
      select m.conversation_id from messages m join conversations c on c.id = m.conversation_id
      where m.id = ${messageId} and (c.user_a = ${me} or c.user_b = ${me})`);
    if (!rows[0]) throw notFound('error.messageNotFound');
    await tx.execute(
      sql`insert into message_hides (message_id, user_id) values (${messageId}, ${me}) on conflict do nothing`,
    );
    await announce(tx, [me], { conversationId: rows[0].conversation_id, messageId, kind: 'hide' });
  });
}

async function upsertSetting(
  q: DbOrTx,
  me: number,
  conversationId: number,
  set: SQL,
  insert: { muted?: boolean; pinned?: boolean; cleared?: boolean; read?: boolean },
) {
  await q.execute(sql`
    insert into conversation_settings (conversation_id, user_id, muted, pinned, cleared_at, last_read_at)
    values (${conversationId}, ${me}, ${insert.muted ?? false}, ${insert.pinned ?? false},
      ${insert.cleared ? sql`now()` : sql`null`}, ${insert.read ? sql`now()` : sql`null`})
    on conflict (conversation_id, user_id) do update set ${set}`);
}

/** 消息免打扰 and 置顶聊天; absent fields stay as they are. */
export async function updateSettings(
  me: number,
  conversationId: number,
  change: { muted?: boolean; pinned?: boolean },
): Promise<ConversationState> {
  await writeLimit(me);
  return db().transaction(async (tx) => {
    const c = await ownConversation(tx, me, conversationId);
    const sets: SQL[] = [];
    if (change.muted !== undefined) sets.push(sql`muted = ${change.muted}`);
    if (change.pinned !== undefined) sets.push(sql`pinned = ${change.pinned}`);
    if (sets.length > 0) {
      await upsertSetting(tx, me, c.id, sql.join(sets, sql`, `), change);
      await announce(tx, [me], { conversationId: c.id, messageId: null, kind: 'setting' });
    }
    return stateWith(tx, me, c.peerId);
  });
}

/** 删除聊天: the conversation leaves `me`'s list, and what came before never shows again, until a newer message. */
export async function clearConversation(me: number, conversationId: number): Promise<void> {
  await writeLimit(me);
  await db().transaction(async (tx) => {
    const c = await ownConversation(tx, me, conversationId);
    await upsertSetting(tx, me, c.id, sql`cleared_at = now()`, { cleared: true });
    await announce(tx, [me], { conversationId: c.id, messageId: null, kind: 'clear' });
  });
}

/** Marks a conversation read for `me` (opening it); answers the new badge total. */
export async function markRead(me: number, conversationId: number): Promise<number> {
  await writeLimit(me);
  await db().transaction(async (tx) => {
    const c = await ownConversation(tx, me, conversationId);
    await upsertSetting(tx, me, c.id, sql`last_read_at = now()`, { read: true });
    await announce(tx, [me], { conversationId: c.id, messageId: null, kind: 'read' });
  });
  return totalUnread(me);
}

/** Conversations of `me`, with my settings, as a FROM item `mine`. */
const mineCte = (me: number) => sql`mine as (
  select c.id, case when c.user_a = ${me} then c.user_b else c.user_a end as peer_id,
    coalesce(s.muted, false) as muted, coalesce(s.pinned, false) as pinned, s.cleared_at, s.last_read_at
  from conversations c
  left join conversation_settings s on s.conversation_id = c.id and s.user_id = ${me}
  where c.user_a = ${me} or c.user_b = ${me})`;

/** The 私信 badge: unread messages over every conversation that is not muted. */
export async function totalUnread(me: number, q: DbOrTx = db()): Promise<number> {
  const { rows } = await q.execute<{ n: number }>(sql`
    with ${mineCte(me)}
    select coalesce(sum(${unreadIn(me, sql`mine.id`, sql`mine.cleared_at`, sql`mine.last_read_at`)}), 0)::int as n
    from mine where not mine.muted`);
  return rows[0]?.n ?? 0;
}

/**
 * The 私信 list: pinned first, then by the newest message `me` can see; conversations with nothing visible are left
 * out. The cursor is the last row's (pinned, newest message id): a conversation that a new message lifts to the top
 * moves there, and nothing else shifts.
 */
export async function listConversations(
  me: number,
  page: Page = {},
): Promise<{ items: ConversationRow[]; cursor: string; hasMore: boolean }> {
  const limit = pageLimit(page, 20);
  const key = cursorKey(page.cursor, 'dm', 2);
  const offset = key ? 0 : skipOf(page);
  const { rows } = await db().execute<{
    id: number;
    muted: boolean;
    pinned: boolean;
    peer_id: number;
    sec_uid: string;
    nickname: string;
    avatar: string;
    following: boolean;
    followed_by: boolean;
    last_text: string;
    last_at: Date | string;
    last_sender: number;
    last_id: number;
    unread: number;
  }>(sql`
    with ${mineCte(me)}
    select mine.id, mine.muted, mine.pinned, mine.peer_id, u.sec_uid, u.nickname, u.avatar,
      exists (select 1 from follows f where f.follower_id = ${me} and f.followee_id = u.id) as following,
      exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${me}) as followed_by,
      lm.text as last_text, lm.created_at as last_at, lm.sender_id as last_sender, lm.id as last_id,
      ${unreadIn(me, sql`mine.id`, sql`mine.cleared_at`, sql`mine.last_read_at`)} as unread
    from mine
    join users u on u.id = mine.peer_id
    cross join lateral (
      select m.id, m.text, m.created_at, m.sender_id from messages m
      where m.conversation_id = mine.id and ${visible(me, sql`m`, sql`mine.cleared_at`)}
      order by m.id desc limit 1) lm
    ${key ? sql`where (mine.pinned::int, lm.id) < (${finite(key[0]!)}::bigint, ${finite(key[1]!)}::bigint)` : sql``}
    order by mine.pinned desc, lm.id desc
    limit ${limit + 1} offset ${offset}`);
  const items = rows.slice(0, limit).map((r) => ({
    id: r.id,
    peer: {
      id: r.peer_id,
      secUid: r.sec_uid,
      nickname: r.nickname,
      avatar: r.avatar,
      following: r.following,
      followedBy: r.followed_by,
    },
    lastMessage: { text: r.last_text, createdAt: new Date(r.last_at), fromViewer: r.last_sender === me },
    unread: r.unread,
    muted: r.muted,
    pinned: r.pinned,
  }));
  const last = rows[Math.min(rows.length, limit) - 1];
  const cursor = last ? encodeCursor('dm', [last.pinned ? 1 : 0, Number(last.last_id)]) : (page.cursor ?? '0');
  return { items, cursor, hasMore: rows.length > limit };
}

/** What one viewer's stream says about a `dm` hub event: their badge, the message as they see it, whether it rings. */
export async function dmEventFor(
  me: number,
  data: DmHubData,
): Promise<{ unread: number; conversationId: number; message: MessageView | null; alert: boolean }> {
  const message = data.messageId === null ? null : await messageFor(me, data.messageId);
  let alert = false;
  if (data.kind === 'message' && message && message.senderId !== me) {
    const { rows } = await db().execute<{ muted: boolean }>(sql`
      select muted from conversation_settings where conversation_id = ${data.conversationId} and user_id = ${me}`);
    alert = rows[0]?.muted !== true;
  }
  return { unread: await totalUnread(me), conversationId: data.conversationId, message, alert };
}
