/** Logging in by QR: the dialog opens a ticket, a logged-in device scans and confirms it, the dialog's poll logs in. */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { db } from '../../db/client.ts';
import { qrTickets, users } from '../../db/schema.ts';
import { notFound, ServiceError } from '../../errors.ts';
import { enforce } from '../rate-limit.ts';
import { hashToken } from '../sessions.ts';
import { ipOf, issue, perIp, sometimes, viewerColumns, type AuthContext, type LoginResult } from './login.ts';

const MINUTE = 60_000;

/** QR tickets opened per IP (scaled by `perIp`). */
export const QR_CREATE_RATE = { limit: 60, windowMs: 10 * MINUTE };
/** Status polls per QR ticket. */
export const QR_POLL_RATE = { limit: 200, windowMs: 10 * MINUTE };
/** QR tickets scanned per logged-in user. */
export const QR_SCAN_RATE = { limit: 60, windowMs: 10 * MINUTE };
/** QR tickets confirmed per logged-in user. */
export const QR_CONFIRM_RATE = { limit: 20, windowMs: 10 * MINUTE };

export type QrState = 'pending' | 'scanned' | 'confirmed' | 'expired';

const QR_TTL_MS = 2 * MINUTE;
const TICKET = /^[\w-]{43}$/;

async function findTicket(ticket: string) {
  if (typeof ticket !== 'string' || !TICKET.test(ticket)) throw notFound('error.qrNotFound');
  const hash = hashToken(ticket);
  const [row] = await db()
    .select({
      id: qrTickets.id,
      status: qrTickets.status,
      userId: qrTickets.userId,
      live: sql<boolean>`${qrTickets.expiresAt} > now()`,
    })
    .from(qrTickets)
    .where(eq(qrTickets.ticketHash, hash))
    .limit(1);
  if (!row) throw notFound('error.qrNotFound');
  return { ...row, hash, gone: !row.live || row.status === 'consumed' || row.status === 'expired' };
}

/** Opens a QR login ticket for the login dialog: a random 256-bit secret stored only as its hash, live 2 minutes. */
export async function createQrTicket(ctx?: AuthContext): Promise<{ ticket: string; expiresAt: Date }> {
  if (ctx) await enforce(`qr:new:${ipOf(ctx)}`, perIp(QR_CREATE_RATE.limit), QR_CREATE_RATE.windowMs);
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + QR_TTL_MS);
  await db()
    .insert(qrTickets)
    .values({ ticketHash: hashToken(ticket), expiresAt });
  await sometimes(() =>
    db()
      .delete(qrTickets)
      .where(sql`${qrTickets.expiresAt} < now() - interval '1 hour'`),
  );
  return { ticket, expiresAt };
}

/**
 * The dialog's poll. Once confirmed, the first call opens the session for the dialog's browser, consumes the
 * ticket and answers `login`; later calls answer 'expired'. Unknown tickets throw `not_found`.
 */
export async function qrStatus(ticket: string, ctx?: AuthContext): Promise<{ status: QrState; login?: LoginResult }> {
  const row = await findTicket(ticket);
  // Keyed by the hash: the ticket itself never reaches the database.
  await enforce(`qr:poll:${row.hash.slice(0, 32)}`, QR_POLL_RATE.limit, QR_POLL_RATE.windowMs);
  if (row.gone) return { status: 'expired' };
  if (row.status === 'pending' || row.status === 'scanned') return { status: row.status };
  const [taken] = await db()
    .update(qrTickets)
    .set({ status: 'consumed' })
    .where(and(eq(qrTickets.id, row.id), eq(qrTickets.status, 'confirmed')))
    .returning({ userId: qrTickets.userId });
  if (!taken?.userId) return { status: 'expired' };
  const [user] = await db().select(viewerColumns).from(users).where(eq(users.id, taken.userId)).limit(1);
  if (!user) return { status: 'expired' };
  return { status: 'confirmed', login: await issue(user, ctx, false) };
}

/** The logged-in viewer opened the ticket's URL: the dialog shows 'scanned'. Gone tickets throw `conflict`. */
export async function scanQrTicket(ticket: string, viewerId: number): Promise<{ status: 'scanned' | 'confirmed' }> {
  await enforce(`qr:scan:${viewerId}`, QR_SCAN_RATE.limit, QR_SCAN_RATE.windowMs);
  const row = await findTicket(ticket);
  if (row.gone) throw new ServiceError('conflict', 'error.qrExpired');
  if (row.status === 'confirmed') return { status: 'confirmed' };
  await db()
    .update(qrTickets)
    .set({ status: 'scanned' })
    .where(and(eq(qrTickets.id, row.id), eq(qrTickets.status, 'pending')));
  return { status: 'scanned' };
}

/** The viewer confirmed on their logged-in device: the dialog's next poll logs in as the viewer. */
export async function confirmQrTicket(ticket: string, viewerId: number): Promise<void> {
  await enforce(`qr:confirm:${viewerId}`, QR_CONFIRM_RATE.limit, QR_CONFIRM_RATE.windowMs);
  const row = await findTicket(ticket);
  if (row.gone) throw new ServiceError('conflict', 'error.qrExpired');
  const done = await db()
    .update(qrTickets)
    .set({ status: 'confirmed', userId: viewerId })
    .where(
      and(
        eq(qrTickets.id, row.id),
        sql`${qrTickets.status} in ('pending', 'scanned')`,
        gt(qrTickets.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: qrTickets.id });
  if (done.length === 0) throw new ServiceError('conflict', 'error.qrExpired');
}

/** Withdraws a ticket (dialog closed, or 取消 on the confirming device); gone tickets are left as they are. */
export async function cancelQrTicket(ticket: string): Promise<void> {
  const row = await findTicket(ticket);
  await db()
    .update(qrTickets)
    .set({ status: 'expired' })
    .where(and(eq(qrTickets.id, row.id), sql`${qrTickets.status} in ('pending', 'scanned', 'confirmed')`));
}
