/** Staff roles: who holds which, granted and revoked by an admin (or from the shell), each change audited. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { STAFF_ROLES, type StaffRole } from '../../shared/staff.ts';
import { db } from '../db/client.ts';
import { staffRoles, users } from '../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import { audit } from './audit.ts';

/** The roles a member holds, in STAFF_ROLES order (empty for everyone who is not staff). */
export async function rolesOf(userId: number): Promise<StaffRole[]> {
  const rows = await db().select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  const held = new Set(rows.map((r) => r.role));
  return STAFF_ROLES.filter((r) => held.has(r));
}

export interface StaffMember {
  id: number;
  secUid: string;
  nickname: string;
  avatar: string;
  email: string | null;
  roles: StaffRole[];
}

/** Everyone holding a role, by nickname. */
export async function listStaff(): Promise<StaffMember[]> {
  const rows = await db()
    .select({
      id: users.id,
      secUid: users.secUid,
      nickname: users.nickname,
      avatar: users.avatar,
      email: users.email,
      roles: sql<StaffRole[]>`array_agg(${staffRoles.role} order by ${staffRoles.role})`,
    })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .groupBy(users.id)
    .orderBy(asc(users.nickname));
  return rows.map((r) => ({ ...r, roles: STAFF_ROLES.filter((role) => r.roles.includes(role)) }));
}

/** The member with this e-mail address (as stored: lower-cased), or not_found. */
export async function userByEmail(email: string): Promise<{ id: number; nickname: string }> {
  const [row] = await db()
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  if (!row) throw notFound('error.userNotFound');
  return row;
}

/** Grants `role` to `userId`; `actorId` null is the shell. Granting a role already held changes nothing and logs nothing. */
export async function grantRole(actorId: number | null, userId: number, role: StaffRole): Promise<boolean> {
  if (!STAFF_ROLES.includes(role)) throw invalid('staff.error.role');
  return db().transaction(async (tx) => {
    const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!exists) throw notFound('error.userNotFound');
    const added = await tx
      .insert(staffRoles)
      .values({ userId, role, grantedBy: actorId })
      .onConflictDoNothing()
      .returning({ role: staffRoles.role });
    if (added.length === 0) return false;
    await audit(tx, { actorId, action: 'role.grant', targetType: 'user', targetId: userId, after: { role } });
    return true;
  });
}

/** Revokes `role` from `userId`. An admin cannot revoke their own admin role (someone must keep the keys). */
export async function revokeRole(actorId: number | null, userId: number, role: StaffRole): Promise<boolean> {
  if (!STAFF_ROLES.includes(role)) throw invalid('staff.error.role');
  if (actorId === userId && role === 'admin') throw invalid('staff.error.ownAdmin');
  return db().transaction(async (tx) => {
    const gone = await tx
      .delete(staffRoles)
      .where(and(eq(staffRoles.userId, userId), eq(staffRoles.role, role)))
      .returning({ role: staffRoles.role });
    if (gone.length === 0) return false;
    await audit(tx, { actorId, action: 'role.revoke', targetType: 'user', targetId: userId, before: { role } });
    return true;
  });
}
