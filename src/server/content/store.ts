/**
 * The editors' content in the database: read at request time (kept per process, dropped at every publication on any
 * app server), saved as a new version with its author, and restorable to any earlier version. Every save is checked by
 * its collection's schema first, so what the pages read always passes the same check again.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { diffLines } from 'diff';
import { stringify } from 'yaml';
import {
  CONTENT_BODY_MAX,
  CONTENT_COLLECTIONS,
  MARKDOWN_COLLECTIONS,
  OPEN_COLLECTIONS,
  type ContentCollection,
} from '../../shared/staff.ts';
import { db, onDbSwitch, type Db } from '../db/client.ts';
import { contentEntries, contentVersions, users } from '../db/schema.ts';
import { invalid, notFound, ServiceError } from '../errors.ts';
import { audit } from '../staff/audit.ts';
import { contentDir, readContentFiles, type ContentFileEntry } from './files.ts';
import { renderMarkdown } from './markdown.ts';
import { announcePublication, onCollectionChanged } from './publish.ts';
import { CONTENT_IDS, checkContent } from './schemas.ts';

type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** A copy of a collection is read again after this long even without a publication (one lost on the way). */
export const CONTENT_TTL_MS = 30_000;

export interface ContentEntry {
  id: string;
  data: Record<string, unknown>;
  body: string | null;
  version: number;
  updatedAt: Date;
}

interface Copy {
  entries: ContentEntry[];
  until: number;
}

/**
 * The copies, kept on globalThis: server.ts loads this module from source for the API while the built pages carry
 * their own bundled instance, and a save through either must drop what both hold.
 */
interface Kept {
  copies: Map<ContentCollection, Copy>;
  /** Bumped by every drop: a read begun before one is not kept (it may hold what was just replaced). */
  generation: number;
  stamps: Map<ContentCollection, string>;
}
const KEPT = Symbol.for('shanying.content.kept');
const kept: Kept = ((globalThis as Record<symbol, Kept | undefined>)[KEPT] ??= {
  copies: new Map(),
  generation: 0,
  stamps: new Map(),
});
const { copies, stamps } = kept;

onCollectionChanged(dropCopy);

/** Drops this process's copy of a collection (every module instance shares it). */
export function dropCopy(collection: ContentCollection): void {
  kept.generation++;
  copies.delete(collection);
}

/** Every entry of a collection, in id order (callers sort by their own `order`). */
export async function listEntries(collection: ContentCollection): Promise<ContentEntry[]> {
  const copy = copies.get(collection);
  if (copy && copy.until > Date.now()) return copy.entries;
  const begun = kept.generation;
  const rows = await db()
    .select({
      id: contentEntries.entryId,
      data: contentEntries.data,
      body: contentEntries.body,
      version: contentEntries.version,
      updatedAt: contentEntries.updatedAt,
    })
    .from(contentEntries)
    .where(eq(contentEntries.collection, collection))
    .orderBy(asc(contentEntries.entryId));
  if (kept.generation === begun) copies.set(collection, { entries: rows, until: Date.now() + CONTENT_TTL_MS });
  stamps.set(collection, rows.map((r) => `${r.id}@${r.version}`).join(','));
  return rows;
}

/** One entry, or undefined. */
export async function getEntry(collection: ContentCollection, id: string): Promise<ContentEntry | undefined> {
  return (await listEntries(collection)).find((e) => e.id === id);
}

/** What this process last read of `collections` (the chrome's address changes with it, chrome-parts.ts). */
export function contentStamp(collections: readonly ContentCollection[]): string {
  return collections.map((c) => stamps.get(c) ?? '').join('|');
}

const rendered = new Map<string, Promise<string>>();
const RENDERED_KEPT = 200;
onDbSwitch(() => {
  for (const collection of [...copies.keys()]) dropCopy(collection);
  stamps.clear();
  rendered.clear();
});

/** An entry's Markdown body as HTML, rendered once per version. */
export function entryHtml(collection: ContentCollection, entry: ContentEntry): Promise<string> {
  const key = `${collection}/${entry.id}@${entry.version}`;
  let html = rendered.get(key);
  if (!html) {
    if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
    html = renderMarkdown(entry.body ?? '');
    html.catch(() => rendered.delete(key));
    rendered.set(key, html);
  }
  return html;
}

/** An entry as saved: data and, for Markdown collections, its body. */
export interface ContentInput {
  data: unknown;
  body?: string | null;
}

/** The checked form of an entry, or an `invalid` error naming the field. */
function checked(
  collection: ContentCollection,
  id: string,
  input: ContentInput,
): { data: Record<string, unknown>; body: string | null } {
  if (!CONTENT_IDS[collection].safeParse(id).success) throw invalid('staff.content.badId', { id });
  const result = checkContent(collection, input.data);
  if (!result.ok)
    throw invalid('staff.content.invalid', { field: result.problem.field, reason: result.problem.reason });
  const markdown = MARKDOWN_COLLECTIONS.includes(collection);
  // One form for every way in (a form, a file, a restore): no trailing blank lines, one final newline.
  const body = markdown ? `${(input.body ?? '').replace(/\r\n?/g, '\n').trimEnd()}\n` : null;
  if (body !== null) {
    if (body.trim() === '') throw invalid('staff.content.invalid', { field: 'body', reason: '不能为空' });
    if (body.length > CONTENT_BODY_MAX)
      throw invalid('staff.content.invalid', { field: 'body', reason: `最多 ${CONTENT_BODY_MAX} 个字符` });
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(body))
      throw invalid('staff.content.invalid', { field: 'body', reason: '不能包含控制字符' });
  }
  return { data: result.data as Record<string, unknown>, body };
}

type VersionKind = 'seed' | 'edit' | 'restore' | 'delete' | 'import';

/** Writes one version of one entry inside `tx`; false when it equals the current one (nothing is written). */
async function writeVersion(
  tx: DbOrTx,
  actorId: number | null,
  collection: ContentCollection,
  id: string,
  next: { data: Record<string, unknown>; body: string | null } | null,
  kind: VersionKind,
  expectedVersion?: number,
): Promise<{ version: number } | false> {
  const [current] = await tx
    .select({ data: contentEntries.data, body: contentEntries.body, version: contentEntries.version })
    .from(contentEntries)
    .where(and(eq(contentEntries.collection, collection), eq(contentEntries.entryId, id)))
    .for('update');
  if (expectedVersion !== undefined && (current?.version ?? 0) !== expectedVersion)
    throw new ServiceError('conflict', 'staff.content.conflict');
  if (!current && next === null) throw notFound('staff.content.notFound');
  if (!current && kind !== 'seed' && kind !== 'import' && !OPEN_COLLECTIONS.includes(collection))
    throw notFound('staff.content.notFound');
  if (current && next && sameContent(current, next)) return false;
  const [last] = await tx
    .select({ version: sql<number>`coalesce(max(${contentVersions.version}), 0)::int` })
    .from(contentVersions)
    .where(and(eq(contentVersions.collection, collection), eq(contentVersions.entryId, id)));
  const version = Number(last?.version ?? 0) + 1;
  await tx.insert(contentVersions).values({
    collection,
    entryId: id,
    version,
    data: next?.data ?? null,
    body: next?.body ?? null,
    authorId: actorId,
    kind,
  });
  if (next === null) {
    await tx
      .delete(contentEntries)
      .where(and(eq(contentEntries.collection, collection), eq(contentEntries.entryId, id)));
  } else {
    await tx
      .insert(contentEntries)
      .values({ collection, entryId: id, data: next.data, body: next.body, version, updatedBy: actorId })
      .onConflictDoUpdate({
        target: [contentEntries.collection, contentEntries.entryId],
        set: { data: next.data, body: next.body, version, updatedBy: actorId, updatedAt: sql`now()` },
      });
  }
  if (kind !== 'seed')
    await audit(tx, {
      actorId,
      action: `content.${kind === 'import' ? 'import' : kind === 'delete' ? 'delete' : kind === 'restore' ? 'restore' : 'save'}`,
      targetType: collection,
      targetId: id,
      before: current ? { version: current.version, data: current.data, body: current.body } : null,
      after: next ? { version, ...next } : null,
    });
  return { version };
}

function sameContent(a: { data: unknown; body: string | null }, b: { data: unknown; body: string | null }): boolean {
  return JSON.stringify(sortKeys(a.data)) === JSON.stringify(sortKeys(b.data)) && (a.body ?? null) === (b.body ?? null);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

/** Saves an entry as a new version and publishes it; `expectedVersion` refuses an edit made on an older version (409). */
export async function saveEntry(
  actorId: number,
  collection: ContentCollection,
  id: string,
  input: ContentInput,
  expectedVersion?: number,
): Promise<{ version: number; changed: boolean }> {
  const next = checked(collection, id, input);
  return publishing(collection, [id], async (tx) => {
    const written = await writeVersion(tx, actorId, collection, id, next, 'edit', expectedVersion);
    return written ? { version: written.version, changed: true } : { version: expectedVersion ?? 0, changed: false };
  });
}

/** Deletes an entry of an open collection (its history stays, and restoring a version brings it back). */
export async function deleteEntry(actorId: number, collection: ContentCollection, id: string): Promise<void> {
  if (!OPEN_COLLECTIONS.includes(collection)) throw invalid('staff.content.fixed');
  await publishing(collection, [id], (tx) => writeVersion(tx, actorId, collection, id, null, 'delete'));
}

/** Saves `version` of an entry again as its newest version (checked by today's schema first). */
export async function restoreVersion(
  actorId: number,
  collection: ContentCollection,
  id: string,
  version: number,
): Promise<{ version: number }> {
  const [old] = await db()
    .select({ data: contentVersions.data, body: contentVersions.body })
    .from(contentVersions)
    .where(
      and(
        eq(contentVersions.collection, collection),
        eq(contentVersions.entryId, id),
        eq(contentVersions.version, version),
      ),
    );
  if (!old) throw notFound('staff.content.notFound');
  if (old.data === null) throw invalid('staff.content.restoreDeleted');
  const next = checked(collection, id, { data: old.data, body: old.body });
  return publishing(collection, [id], async (tx) => {
    const written = await writeVersion(tx, actorId, collection, id, next, 'restore');
    if (!written) throw invalid('staff.content.sameVersion');
    return written;
  });
}

/** Runs `work` in a transaction that announces the publication; this server's copies go once it commits. */
async function publishing<T>(
  collection: ContentCollection,
  ids: string[],
  work: (tx: DbOrTx) => Promise<T>,
): Promise<T> {
  let drop: (() => void) | undefined;
  const result = await db().transaction(async (tx) => {
    const out = await work(tx);
    drop = await announcePublication(tx, collection, ids);
    return out;
  });
  drop?.();
  return result;
}

export interface VersionView {
  version: number;
  kind: string;
  authorId: number | null;
  authorName: string | null;
  createdAt: Date;
  deleted: boolean;
  /** Lines added and removed against the version before it (the first: against nothing). */
  diff: { added?: boolean; removed?: boolean; value: string }[];
}

/** Text an entry's diff is made of: its data as YAML, then its body. */
function asText(data: unknown, body: string | null): string {
  if (data === null) return '';
  return `${stringify(sortKeys(data))}${body === null ? '' : `---\n${body.endsWith('\n') ? body : `${body}\n`}`}`;
}

/** Versions kept per history page. */
export const HISTORY_PAGE = 50;

/** An entry's history, newest first: who, when, what kind of change, and the diff against the version before. */
export async function entryHistory(collection: ContentCollection, id: string): Promise<VersionView[]> {
  const rows = await db()
    .select({
      version: contentVersions.version,
      kind: contentVersions.kind,
      authorId: contentVersions.authorId,
      authorName: users.nickname,
      createdAt: contentVersions.createdAt,
      data: contentVersions.data,
      body: contentVersions.body,
    })
    .from(contentVersions)
    .leftJoin(users, eq(users.id, contentVersions.authorId))
    .where(and(eq(contentVersions.collection, collection), eq(contentVersions.entryId, id)))
    .orderBy(desc(contentVersions.version))
    .limit(HISTORY_PAGE + 1);
  if (rows.length === 0) throw notFound('staff.content.notFound');
  return rows.slice(0, HISTORY_PAGE).map((row, i) => {
    const before = rows[i + 1];
    return {
      version: row.version,
      kind: row.kind,
      authorId: row.authorId,
      authorName: row.authorName,
      createdAt: row.createdAt,
      deleted: row.data === null,
      diff: diffLines(before ? asText(before.data, before.body) : '', asText(row.data, row.body)).map((p) => ({
        ...(p.added ? { added: true } : {}),
        ...(p.removed ? { removed: true } : {}),
        value: p.value,
      })),
    };
  });
}

/**
 * Loads entries in bulk (the seed, `npm run content:import`): every one is checked before any is written, then each
 * that differs from the live one becomes a new version. Entries absent from `entries` are left as they are.
 */
export async function importEntries(
  entries: readonly ContentFileEntry[],
  kind: 'seed' | 'import' = 'import',
  q: Db = db(),
): Promise<{ written: number; unchanged: number }> {
  const ready = entries.map((e) => {
    if (!CONTENT_COLLECTIONS.includes(e.collection)) throw invalid('staff.content.badId', { id: e.collection });
    try {
      return { ...e, ...checked(e.collection, e.id, { data: e.data, body: e.body }) };
    } catch (error) {
      if (error instanceof ServiceError && error.vars)
        throw new Error(`${e.collection}/${e.id}: ${String(error.vars.field)} ${String(error.vars.reason ?? '')}`);
      throw error;
    }
  });
  let written = 0;
  const byCollection = new Map<ContentCollection, string[]>();
  for (const e of ready) byCollection.set(e.collection, [...(byCollection.get(e.collection) ?? []), e.id]);
  const drops: (() => void)[] = [];
  await q.transaction(async (tx) => {
    for (const e of ready) {
      if (await writeVersion(tx, null, e.collection, e.id, { data: e.data, body: e.body }, kind)) written++;
    }
    for (const [collection, ids] of byCollection) drops.push(await announcePublication(tx, collection, ids));
  });
  for (const drop of drops) drop();
  return { written, unchanged: ready.length - written };
}

/** Every live entry, as the files hold them (`npm run content:export`). */
export async function exportEntries(): Promise<ContentFileEntry[]> {
  const rows = await db()
    .select({
      collection: contentEntries.collection,
      id: contentEntries.entryId,
      data: contentEntries.data,
      body: contentEntries.body,
    })
    .from(contentEntries)
    .orderBy(asc(contentEntries.collection), asc(contentEntries.entryId));
  return rows.map((r) => ({ ...r, collection: r.collection as ContentCollection }));
}

/**
 * Seeds the editors' content from src/content when the database has none: on a new site's first start, and on an
 * existing site's first start after the migration that made the tables. Under the caller's seed lock.
 */
export async function seedContentIfEmpty(q: Db = db(), dir = contentDir()): Promise<number> {
  const { rows } = await q.execute<{ any: boolean }>(sql`select exists (select 1 from ${contentEntries}) as any`);
  if (rows[0]?.any) return 0;
  return (await importEntries(await readContentFiles(dir), 'seed', q)).written;
}
