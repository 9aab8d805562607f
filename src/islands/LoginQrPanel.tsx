import { useEffect, useState } from 'react';
import { t } from '../i18n/t.ts';
import { riCheckboxCircleFill, riRefreshLine } from '../shared/icons.ts';
import { createQrTicket, pollQrTicket, type QrStatus, type QrTicket } from '../stores/user.ts';
import { Icon } from './Icon.tsx';
import { finishLogin } from './LoginForm.ts';

const QR_POLL_MS = 1500;
const QR_TTL_MS = 120_000;

function expiryOf(value: number | string | undefined): number {
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value ?? '');
  return Number.isFinite(ms) ? ms : Date.now() + QR_TTL_MS;
}

/**
 * The QR tab: a fresh ticket, polled every 1.5 s while the tab shows and the page is visible. A ticket left behind
 * is not withdrawn (qr/cancel is for the confirming device): it dies unconfirmed after 2 minutes.
 */
export function LoginQrPanel() {
  const [qr, setQr] = useState<QrTicket | null>(null);
  const [status, setStatus] = useState<QrStatus | 'loading' | 'failed'>('loading');
  const [round, setRound] = useState(0);

  useEffect(() => {
    let alive = true;
    let ticket: string | null = null;
    let expires = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setStatus('loading');
    setQr(null);

    const schedule = () => {
      timer = setTimeout(tick, QR_POLL_MS);
    };
    const tick = async () => {
      if (!alive || !ticket) return;
      if (Date.now() >= expires) {
        setStatus('expired');
        return;
      }
      if (document.visibilityState !== 'visible') return schedule();
      try {
        const next = await pollQrTicket(ticket);
        if (!alive) return;
        setStatus(next);
        if (next === 'confirmed' || next === 'expired') {
          ticket = null;
          if (next === 'confirmed') finishLogin();
          return;
        }
      } catch {
        // A dropped poll is retried on the next tick.
      }
      schedule();
    };

    createQrTicket()
      .then((created) => {
        if (!alive) return;
        ticket = created.ticket;
        expires = expiryOf(created.expires_at);
        setQr(created);
        setStatus('pending');
        schedule();
      })
      .catch(() => alive && setStatus('failed'));

    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [round]);

  const dim = status === 'expired' || status === 'scanned' || status === 'failed';
  return (
    <div className="flex flex-col items-center gap-4 py-2">
      <div className="relative h-[200px] w-[200px] overflow-hidden rounded-xl border border-line bg-white p-2">
        {qr && (
          <div
            className={`h-full w-full transition-opacity [&>svg]:(h-full w-full) ${dim ? 'opacity-15' : ''}`}
            // Our own server's SVG (the QR of the one-time login URL), not user content.
            dangerouslySetInnerHTML={{ __html: qr.svg }}
          />
        )}
        {status === 'loading' && (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-[#161823]/60">
            {t('login.qr.loading')}
          </p>
        )}
        {status === 'scanned' && (
          <p
            className="absolute inset-0 flex flex-col items-center justify-center gap-2 px-4 text-center text-sm font-medium text-[#161823]"
            role="status"
          >
            <Icon svg={riCheckboxCircleFill} className="text-3xl text-accent" />
            {t('login.qr.scanned')}
          </p>
        )}
        {(status === 'expired' || status === 'failed') && (
          <div
            className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-[#161823]"
            role="status"
          >
            <span>{status === 'expired' ? t('login.qr.expired') : t('login.qr.failed')}</span>
            <button type="button" className="btn-accent" onClick={() => setRound((r) => r + 1)}>
              <Icon svg={riRefreshLine} />
              {t('login.qr.refresh')}
            </button>
          </div>
        )}
      </div>
      <p className="text-sm text-secondary">{t('login.qr.hint')}</p>
    </div>
  );
}
