/**
 * Muting (屏蔽): a member's muted keywords, authors (不看TA的作品) and hashtags, and the one rule every read path applies
 * for them (`notMutedWork`, `notMutedText`). Stored server-side, so every device the member logs in on reads the same.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { mutes, users } from '../db/schema.ts';
import { hasControlChar } from '../../shared/text-chars.ts';
import {
  MUTE_HASHTAG_MAX,
  MUTE_KEYWORD_MAX,
  MUTE_KEYWORDS_MAX,
  MUTE_OTHERS_MAX,
  muteValue,
  type MuteKind,
} from '../../shared/mutes.ts';
import { mediaUrl } from '../media-url.ts';
import { invalid, notFound } from '../errors.ts';

export { MUTE_KEYWORD_MAX, MUTE_KEYWORDS_MAX, MUTE_HASHTAG_MAX } from '../../shared/mutes.ts';

export interface MuteEntry {
  id: number;
  kind: MuteKind;
  /** The keyword, the hashtag's name, or the author's id as text. */
  value: string;
  /** For an author: who it is. */
  author: { id: number; secUid: string; nickname: string; avatar: string } | null;
  createdAt: Date;
}

export interface MemberMutes {
  keywords: string[];
  /** Muted authors by sec_uid, as pages name people. */
  authors: string[];
  hashtags: string[];
}

/** A member's mutes, newest first, authors with who they are. */
export async function listMutes(userId: number): Promise<MuteEntry[]> {
  const rows = await db()
    .select({
      id: mutes.id,
      kind: mutes.kind,
      value: mutes.value,
      createdAt: mutes.createdAt,
      authorId: users.id,
      secUid: users.secUid,
      nickname: users.nickname,
      avatar: users.avatar,
    })
    .from(mutes)
    .leftJoin(users, eq(users.id, mutes.authorId))
    .where(eq(mutes.userId, userId))
    .orderBy(sql`${mutes.createdAt} desc`, sql`${mutes.id} desc`);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    value: r.value,
    createdAt: r.createdAt,
    author:
      r.kind === 'author' && r.authorId !== null
        ? { id: r.authorId, secUid: r.secUid!, nickname: r.nickname!, avatar: r.avatar! }
        : null,
  }));
}

/** One entry as the API and 屏蔽设置 show it (times in seconds, the author's avatar as a URL). */
export function muteView(m: MuteEntry) {
  return {
    id: m.id,
    kind: m.kind,
    value: m.value,
    user: m.author && {
      uid: String(m.author.id),
      secUid: m.author.secUid,
      nickname: m.author.nickname,
      avatar: mediaUrl(m.author.avatar),
    },
    createTime: Math.floor(m.createdAt.getTime() / 1000),
  };
}

/** The values alone, as the browser's copy of the rule reads them (shared/mutes.ts). */
export async function memberMutes(userId: number): Promise<MemberMutes> {
  const rows = await db()
    .select({ kind: mutes.kind, value: mutes.value, secUid: users.secUid })
    .from(mutes)
    .leftJoin(users, eq(users.id, mutes.authorId))
    .where(eq(mutes.userId, userId))
    .orderBy(asc(mutes.id));
  const out: MemberMutes = { keywords: [], authors: [], hashtags: [] };
  for (const r of rows) {
    if (r.kind === 'keyword') out.keywords.push(r.value);
    else if (r.kind === 'hashtag') out.hashtags.push(r.value);
    else if (r.secUid !== null) out.authors.push(r.secUid);
  }
  return out;
}

/** The stored value of a keyword or hashtag, or a clear refusal naming what is wrong. */
function checkedValue(kind: 'keyword' | 'hashtag', raw: string): string {
  if (hasControlChar(raw)) throw invalid('error.muteChars');
  const value = muteValue(kind, raw);
  if (!value) throw invalid('error.muteEmpty');
  const max = kind === 'keyword' ? MUTE_KEYWORD_MAX : MUTE_HASHTAG_MAX;
  if ([...value].length > max)
    throw invalid(kind === 'keyword' ? 'error.muteKeywordLong' : 'error.muteHashtagLong', { max });
  if (/\s/.test(value) && kind === 'hashtag') throw invalid('error.muteChars');
  return value;
}

/**
 * Mutes one keyword, hashtag (by name) or author (by user id) for `userId`; muting what is already muted answers the
 * existing entry. The caps are checked in the transaction that writes, under a lock on the member's row, so two
 * concurrent adds never pass 200 keywords between them.
 */
export async function addMute(
  userId: number,
  input: { kind: 'keyword' | 'hashtag'; value: string } | { kind: 'author'; authorId: number },
): Promise<MuteEntry> {
  const value = input.kind === 'author' ? String(input.authorId) : checkedValue(input.kind, input.value);
  if (input.kind === 'author' && input.authorId === userId) throw invalid('error.muteSelf');
  const id = await db().transaction(async (tx) => {
    await tx.execute(sql`select 1 from users where id = ${userId} for update`);
    if (input.kind === 'author') {
      const [author] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.authorId));
      if (!author) throw notFound('error.userNotFound');
    }
    const [existing] = await tx
      .select({ id: mutes.id })
      .from(mutes)
      .where(and(eq(mutes.userId, userId), eq(mutes.kind, input.kind), eq(mutes.value, value)));
    if (existing) return existing.id;
    const [{ n }] = (
      await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from mutes where user_id = ${userId} and kind = ${input.kind}`,
      )
    ).rows as [{ n: number }];
    const cap = input.kind === 'keyword' ? MUTE_KEYWORDS_MAX : MUTE_OTHERS_MAX;
    if (Number(n) >= cap)
      throw invalid(input.kind === 'keyword' ? 'error.muteKeywordsFull' : 'error.muteFull', { max: cap });
    const [row] = await tx
      .insert(mutes)
      .values({ userId, kind: input.kind, value, authorId: input.kind === 'author' ? input.authorId : null })
      .returning({ id: mutes.id });
    return row!.id;
  });
  return (await listMutes(userId)).find((m) => m.id === id)!;
}

/** Takes one mute back (撤销 or 移除), by its id or by what it mutes; removing what is not muted is no error. */
export async function removeMute(
  userId: number,
  which: { id: number } | { kind: 'keyword' | 'hashtag'; value: string } | { kind: 'author'; authorId: number },
): Promise<void> {
  let where: SQL | undefined;
  if ('id' in which) where = eq(mutes.id, which.id);
  else if (which.kind === 'author') where = and(eq(mutes.kind, 'author'), eq(mutes.authorId, which.authorId));
  else where = and(eq(mutes.kind, which.kind), eq(mutes.value, muteValue(which.kind, which.value)));
  await db()
    .delete(mutes)
    .where(and(eq(mutes.userId, userId), where));
}

/**
 * The member's muted keywords as one regular expression (`k1|k2|…`, every character that is not a letter or digit
 * escaped, so each keyword is matched as the plain text it is), or null when they muted none. One alternation is one
 * pass over a work's text: 200 LIKE patterns cost about 20 times as much per work.
 */
const keywordPattern = (viewerId: number) =>
  sql`(select string_agg(regexp_replace(m.value, ${sql.raw(`'([^[:alnum:]])'`)}, ${sql.raw(String.raw`'\\\1'`)}, 'g'), '|')
    from mutes m where m.user_id = ${viewerId} and m.kind = 'keyword')`;

/**
 * `text` (lower-cased) holds none of the member's muted keywords. Most members mute none: the test of the pattern comes
 * first, so their rows skip the text (a candidate list's would be read by primary key, one probe per work).
 */
const withoutKeywords = (viewerId: number, text: SQL) =>
  sql`(${keywordPattern(viewerId)} is null or not coalesce(lower(${text}) ~ ${keywordPattern(viewerId)}, false))`;

/**
 * The one rule of what muting hides, on a works row (`row`: an alias with `id`, `author_id` and `desc`; `videos` by
 * default; `hasText` false when it has no `desc`): works by a muted author, whose text (title and its #hashtags) holds a muted keyword as a plain substring,
 * case folded, or that carry a muted hashtag. Each list of the member's mutes is read once per statement (an
 * uncorrelated sub-select, an InitPlan), so the cost per work is one regular expression over its text and one probe of
 * its hashtags. Anonymous viewers mute nothing (undefined: no condition). Read paths AND it in beside the block rule.
 */
export function notMutedWork(viewerId: number | null, row = 'videos', hasText = true): SQL | undefined {
  if (viewerId === null) return undefined;
  const [id, author] = [sql.raw(`${row}.id`), sql.raw(`${row}.author_id`)];
  // A row that carries no text (a candidate list) reads its work's by primary key.
  const text = hasText ? sql.raw(`${row}."desc"`) : sql`(select mv."desc" from videos mv where mv.id = ${id})`;
  return sql`(${author} <> all (array(select m.author_id from mutes m where m.user_id = ${viewerId} and m.kind = 'author'))
    and ${withoutKeywords(viewerId, text)}
    and not exists (select 1 from video_hashtags mh where mh.video_id = ${id} and mh.hashtag_id = any (array(
      select h.id from mutes m join hashtags h on h.name = m.value where m.user_id = ${viewerId} and m.kind = 'hashtag'))))`;
}

/**
 * The same rule on something a person wrote (a danmaku, a notification's actor and text): not by a muted author and
 * without a muted keyword. `text` may be null (nothing written).
 */
export function notMutedText(viewerId: number | null, writer: SQL, text: SQL | null): SQL | undefined {
  if (viewerId === null) return undefined;
  const words = text ? sql` and ${withoutKeywords(viewerId, sql`coalesce(${text}, '')`)}` : sql``;
  return sql`(coalesce(${writer}, 0) <> all (array(select m.author_id from mutes m where m.user_id = ${viewerId} and m.kind = 'author'))${words})`;
}
