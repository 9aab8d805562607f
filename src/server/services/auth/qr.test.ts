import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../../../../tests/setup/auth-harness.ts';
import { DEMO_EMAIL } from '../../db/demo.ts';
import { qrTickets, users } from '../../db/schema.ts';
import { reset } from '../rate-limit.ts';
import { hashToken, resolveSession } from '../sessions.ts';
import {
  cancelQrTicket,
  confirmQrTicket,
  createQrTicket,
  QR_CONFIRM_RATE,
  QR_POLL_RATE,
  qrStatus,
  scanQrTicket,
} from './qr.ts';

const h = useAuthHarness();
const { failure, track, secrets } = h;

describe('QR login', () => {
  // Scanning and confirming happen on a logged-in device; the services take that viewer's id.
  async function confirmer() {
    const [demo] = await h.t.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EMAIL));
    return demo!;
  }

  it('pending → scanned → confirmed; the first status logs in as the confirmer, the next is expired', async () => {
    const viewer = await confirmer();
    const { ticket, expiresAt } = await createQrTicket({ ip: '10.2.0.2' });
    secrets.add(ticket);
    expect(ticket).toMatch(/^[\w-]{43}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(120_000);
    const [stored] = await h.t.db
      .select()
      .from(qrTickets)
      .where(eq(qrTickets.ticketHash, hashToken(ticket)));
    expect(stored?.status).toBe('pending');

    expect(await qrStatus(ticket)).toEqual({ status: 'pending' });
    expect(await scanQrTicket(ticket, viewer.id)).toEqual({ status: 'scanned' });
    expect(await qrStatus(ticket)).toEqual({ status: 'scanned' });
    await confirmQrTicket(ticket, viewer.id);

    const first = await qrStatus(ticket, { ip: '10.2.0.2', userAgent: 'dialog' });
    expect(first.status).toBe('confirmed');
    const login = track(first.login!);
    expect(login.user.id).toBe(viewer.id);
    expect((await resolveSession(login.token))?.id).toBe(viewer.id);
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(confirmQrTicket(ticket, viewer.id))).kind).toBe('conflict');
  });

  it('answers expired for an expired ticket and refuses to scan or confirm it', async () => {
    const viewer = await confirmer();
    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    await h.t.db
      .update(qrTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(qrTickets.ticketHash, hashToken(ticket)));
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(scanQrTicket(ticket, viewer.id))).kind).toBe('conflict');
    expect((await failure(confirmQrTicket(ticket, viewer.id))).kind).toBe('conflict');
  });

  it('cancels a ticket; unknown and malformed tickets are not_found', async () => {
    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    await cancelQrTicket(ticket);
    expect(await qrStatus(ticket)).toEqual({ status: 'expired' });
    expect((await failure(qrStatus('A'.repeat(43)))).kind).toBe('not_found');
    expect((await failure(qrStatus('../etc'))).kind).toBe('not_found');
  });

  it('bounds confirmations per user and polls per ticket', async () => {
    const viewer = await confirmer();
    await reset('qr:confirm:');
    for (let i = 0; i < QR_CONFIRM_RATE.limit; i++)
      expect((await failure(confirmQrTicket('B'.repeat(43), viewer.id))).kind).toBe('not_found');
    expect((await failure(confirmQrTicket('B'.repeat(43), viewer.id))).kind).toBe('rate_limited');

    const { ticket } = await createQrTicket();
    secrets.add(ticket);
    for (let i = 0; i < QR_POLL_RATE.limit; i++) await qrStatus(ticket);
    const polled = await failure(qrStatus(ticket));
    expect(polled.kind).toBe('rate_limited');
    expect(polled.retryAfter).toBeGreaterThan(0);
  });
});

describe('secrets at rest and in logs', () => {
  it('keeps every ticket and token out of every table and every log line', async () => {
    await h.expectSecretsKept({ secrets: 5, codes: 0, sessions: 1 });
  });
});
