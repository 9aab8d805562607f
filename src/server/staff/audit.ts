/**
 * The staff audit log: one append-only row per staff action (who, when, what, the state before and after). Written in
 * the same transaction as the action, so an action is never without its row nor a row without its action.
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { db, type Db } from '../db/client.ts';
import { staffAudit, users } from '../db/schema.ts';

type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** One staff action to record. `actorId` null: the shell (`npm run staff`, `npm run content:import`). */
export interface AuditRecord {
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
}

/** Appends one row. */
export async function audit(q: DbOrTx, record: AuditRecord): Promise<void> {
  await q.insert(staffAudit).values({
    actorId: record.actorId,
    action: record.action,
    targetType: record.targetType,
    targetId: String(record.targetId),
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

export interface AuditRow {
  id: number;
  actorId: number | null;
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

/** Audit log page size. */
export const AUDIT_PAGE = 50;

/** A page of the log, newest first: everyone's for an admin (`actorId` undefined), else one actor's own. */
export async function listAudit(opts: { actorId?: number; before?: number } = {}): Promise<AuditRow[]> {
  return db()
    .select({
      id: staffAudit.id,
      actorId: staffAudit.actorId,
      actorName: users.nickname,
      action: staffAudit.action,
      targetType: staffAudit.targetType,
      targetId: staffAudit.targetId,
      before: staffAudit.before,
      after: staffAudit.after,
      createdAt: staffAudit.createdAt,
    })
    .from(staffAudit)
    .leftJoin(users, eq(users.id, staffAudit.actorId))
    .where(
      and(
        opts.actorId === undefined ? undefined : eq(staffAudit.actorId, opts.actorId),
        opts.before === undefined ? undefined : lt(staffAudit.id, opts.before),
      ),
    )
    .orderBy(desc(staffAudit.id))
    .limit(AUDIT_PAGE);
}

/** How many rows the log holds (tests count one per action). */
export async function auditCount(): Promise<number> {
  const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from ${staffAudit}`);
  return Number(rows[0]?.n ?? 0);
}
