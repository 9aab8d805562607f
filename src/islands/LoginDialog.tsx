import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { apiGet } from '../client/api.ts';
import { t } from '../i18n/t.ts';
import {
  riCheckboxCircleFill,
  riCloseLine,
  riEyeLine,
  riEyeOffLine,
  riHeart3Line,
  riLiveLine,
  riRefreshLine,
  riUserHeartLine,
} from '../shared/icons.ts';
import { $codeCountdown, $loginOpen, closeLogin } from '../stores/auth.ts';
import {
  createQrTicket,
  loginWithCode,
  loginWithPassword,
  pollQrTicket,
  rememberedEmail,
  reloadPage,
  sendLoginCode,
  type QrStatus,
  type QrTicket,
} from '../stores/user.ts';
import { Icon } from './Icon.tsx';

type Tab = 'qr' | 'code' | 'password';
const TABS: { id: Tab; label: string }[] = [
  { id: 'qr', label: t('login.tab.qr') },
  { id: 'code', label: t('login.tab.code') },
  { id: 'password', label: t('login.tab.password') },
];
const SLOGANS = [
  { icon: riHeart3Line, text: t('login.slogan.interact') },
  { icon: riLiveLine, text: t('login.slogan.live') },
  { icon: riUserHeartLine, text: t('login.slogan.friends') },
];
const QR_POLL_MS = 1500;
const QR_TTL_MS = 120_000;

const fieldClass =
  'h-11 w-full rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent aria-[invalid=true]:border-accent';
const errorOf = (e: unknown) => (e instanceof Error && e.message) || t('toast.failed');

/** Logged in: the dialog closes itself and the page reloads so its server-rendered parts show the user. */
function finish(): void {
  closeLogin();
  reloadPage();
}

/** The login dialog: QR, emailed code and password, 密码登录 first. Loaded on first open. */
export function LoginDialog() {
  const open = useStore($loginOpen);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const pressedOnBackdrop = useRef(false);
  const [tab, setTab] = useState<Tab>('password');
  const [email, setEmail] = useState('');
  const [demoPassword, setDemoPassword] = useState('');
  const titleId = useId();
  const baseId = useId();

  // Pre-fill: the remembered email, else the demo account when the server has one.
  useEffect(() => {
    const remembered = rememberedEmail();
    if (remembered) setEmail((typed) => typed || remembered);
    apiGet<{ email: string | null; password?: string }>('/passport/demo', {}, { quiet: true })
      .then((demo) => {
        if (!demo.email || !demo.password) return;
        if (!remembered || remembered === demo.email) {
          setEmail((typed) => typed || demo.email!);
          setDemoPassword(demo.password);
        }
      })
      .catch(() => {});
  }, []);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      el.showModal();
      focusFirst(el);
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  const onKeyTabs = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = TABS.findIndex((x) => x.id === tab);
    const next =
      e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    setTab(TABS[next]!.id);
    document.getElementById(`${baseId}-tab-${TABS[next]!.id}`)?.focus();
  };

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes the dialog; Escape already does so natively
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      className="login-dialog m-auto backdrop:bg-black/50 w-[min(760px,calc(100vw-32px))] overflow-visible rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl"
      onClose={() => {
        closeLogin();
        returnTo.current?.focus();
      }}
      onPointerDown={(e) => (pressedOnBackdrop.current = e.target === e.currentTarget)}
      onClick={(e) => {
        if (pressedOnBackdrop.current && e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      <div className="relative grid gap-6 p-8 md:grid-cols-[1fr_360px]">
        <section className="flex flex-col justify-center gap-5">
          <h2 id={titleId} className="text-2xl font-semibold leading-snug">
            {t('login.title')}
          </h2>
          <ul className="flex flex-col gap-3 text-secondary">
            {SLOGANS.map((s) => (
              <li key={s.text} className="flex items-center gap-2">
                <Icon svg={s.icon} className="text-lg text-accent" />
                {s.text}
              </li>
            ))}
          </ul>
        </section>

        <section className="flex flex-col">
          {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus -- arrow keys move focus among the tab buttons (roving tabindex); the tablist itself is no tab stop */}
          <div role="tablist" aria-label={t('login.tabs')} className="mb-5 flex gap-6 border-b border-line" onKeyDown={onKeyTabs}>
            {TABS.map((x) => (
              <button
                key={x.id}
                id={`${baseId}-tab-${x.id}`}
                type="button"
                role="tab"
                aria-selected={tab === x.id}
                aria-controls={`${baseId}-panel-${x.id}`}
                tabIndex={tab === x.id ? 0 : -1}
                onClick={() => setTab(x.id)}
                className={`focus-ring -mb-px h-10 border-b-2 text-base ${tab === x.id ? 'border-accent font-semibold text-primary' : 'border-transparent text-secondary hover:text-primary'}`}
              >
                {x.label}
              </button>
            ))}
          </div>
          <Panel id={`${baseId}-panel-qr`} tabId={`${baseId}-tab-qr`} hidden={tab !== 'qr'}>
            {open && tab === 'qr' && <QrPanel />}
          </Panel>
          <Panel id={`${baseId}-panel-code`} tabId={`${baseId}-tab-code`} hidden={tab !== 'code'}>
            <CodePanel email={email} setEmail={setEmail} idPrefix={`${baseId}-code`} />
          </Panel>
          <Panel id={`${baseId}-panel-password`} tabId={`${baseId}-tab-password`} hidden={tab !== 'password'}>
            <PasswordPanel email={email} setEmail={setEmail} demoPassword={demoPassword} idPrefix={`${baseId}-pw`} />
          </Panel>
        </section>

        <button
          type="button"
          className="btn-ghost absolute right-3 top-3 h-9 w-9 rounded-full p-0"
          aria-label={t('login.close')}
          onClick={() => dialog.current?.close()}
        >
          <Icon svg={riCloseLine} className="text-xl" />
        </button>
      </div>
    </dialog>
  );
}

/** Focus goes to the first empty field of the shown panel, else its first enabled button, else the selected tab. */
function focusFirst(root: HTMLElement): void {
  const panel = root.querySelector<HTMLElement>('[role="tabpanel"]:not([hidden])');
  const empty = [...(panel?.querySelectorAll<HTMLInputElement>('input') ?? [])].find((i) => !i.value);
  const target = empty ?? panel?.querySelector<HTMLElement>('button[type="submit"]:not(:disabled)') ?? root.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
  target?.focus();
}

function Panel({ id, tabId, hidden, children }: { id: string; tabId: string; hidden: boolean; children: ReactNode }) {
  return (
    <div id={id} role="tabpanel" aria-labelledby={tabId} hidden={hidden}>
      {children}
    </div>
  );
}

function FormError({ message }: { message: string }) {
  return (
    <p role="alert" className="min-h-5 text-sm text-accent-text">
      {message}
    </p>
  );
}

interface EmailProps {
  email: string;
  setEmail: (email: string) => void;
  idPrefix: string;
}

function PasswordPanel({ email, setEmail, demoPassword, idPrefix }: EmailProps & { demoPassword: string }) {
  const [password, setPassword] = useState('');
  const [reveal, setReveal] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (demoPassword) setPassword((typed) => typed || demoPassword);
  }, [demoPassword]);

  const ready = email.trim() !== '' && password !== '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError('');
    try {
      await loginWithPassword(email, password);
      finish();
    } catch (err) {
      setError(errorOf(err));
      setBusy(false);
    }
  };

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-email`} className="text-sm text-secondary">
          {t('login.email')}
        </label>
        <input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="username"
          placeholder={t('login.email.placeholder')}
          className={fieldClass}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-password`} className="text-sm text-secondary">
          {t('login.password')}
        </label>
        <div className="relative">
          <input
            id={`${idPrefix}-password`}
            type={reveal ? 'text' : 'password'}
            autoComplete="current-password"
            placeholder={t('login.password.placeholder')}
            className={`${fieldClass} pr-11`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button
            type="button"
            className="btn-ghost absolute right-1 top-1 h-9 w-9 p-0"
            aria-label={t('login.password.reveal')}
            aria-pressed={reveal}
            onClick={() => setReveal((r) => !r)}
          >
            <span className={`${reveal ? riEyeLine : riEyeOffLine} text-lg`} aria-hidden="true" />
          </button>
        </div>
      </div>
      <FormError message={error} />
      <button type="submit" className="btn-accent h-11 w-full text-base" disabled={!ready || busy}>
        {busy ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}

function CodePanel({ email, setEmail, idPrefix }: EmailProps) {
  const countdown = useStore($codeCountdown);
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [busy, setBusy] = useState(false);
  const [emailError, setEmailError] = useState('');
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');
  const emailInput = useRef<HTMLInputElement>(null);

  const requestCode = async () => {
    setNotice('');
    if (!email.trim()) {
      setEmailError(t('login.error.emailEmpty'));
      emailInput.current?.focus();
      return;
    }
    setEmailError('');
    setSending(true);
    try {
      await sendLoginCode(email);
      setNotice(t('login.code.sent'));
    } catch (err) {
      setEmailError(errorOf(err));
    } finally {
      setSending(false);
    }
  };

  const ready = email.trim() !== '' && code !== '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError('');
    try {
      await loginWithCode(email, code);
      finish();
    } catch (err) {
      setError(errorOf(err));
      setBusy(false);
    }
  };

  const emailErrorId = `${idPrefix}-email-error`;
  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-email`} className="text-sm text-secondary">
          {t('login.email')}
        </label>
        <input
          ref={emailInput}
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="email"
          placeholder={t('login.email.placeholder')}
          className={fieldClass}
          value={email}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailErrorId}
          onChange={(e) => {
            setEmail(e.target.value);
            if (e.target.value.trim()) setEmailError('');
          }}
        />
        <p id={emailErrorId} role="alert" className="min-h-5 text-sm text-accent-text">
          {emailError}
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-code`} className="text-sm text-secondary">
          {t('login.code')}
        </label>
        <div className="flex gap-2">
          <input
            id={`${idPrefix}-code`}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            placeholder={t('login.code.placeholder')}
            className={fieldClass}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          />
          <button type="button" className="btn-ghost h-11 shrink-0 whitespace-nowrap border border-line px-3" disabled={countdown > 0 || sending} onClick={requestCode}>
            {countdown > 0 ? t('login.code.resend', { n: countdown }) : t('login.code.send')}
          </button>
        </div>
        <p className="min-h-5 text-sm text-secondary" aria-live="polite">
          {notice}
        </p>
      </div>
      <FormError message={error} />
      <button type="submit" className="btn-accent h-11 w-full text-base" disabled={!ready || busy}>
        {busy ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}

function expiryOf(value: number | string | undefined): number {
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value ?? '');
  return Number.isFinite(ms) ? ms : Date.now() + QR_TTL_MS;
}

/**
 * The QR tab: a fresh ticket, polled every 1.5 s while the tab shows and the page is visible. A ticket left behind
 * is not withdrawn (qr/cancel is for the confirming device): it dies unconfirmed after 2 minutes.
 */
function QrPanel() {
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
          if (next === 'confirmed') finish();
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
        {status === 'loading' && <p className="absolute inset-0 flex items-center justify-center text-sm text-[#161823]/60">{t('login.qr.loading')}</p>}
        {status === 'scanned' && (
          <p className="absolute inset-0 flex flex-col items-center justify-center gap-2 px-4 text-center text-sm font-medium text-[#161823]" role="status">
            <Icon svg={riCheckboxCircleFill} className="text-3xl text-accent" />
            {t('login.qr.scanned')}
          </p>
        )}
        {(status === 'expired' || status === 'failed') && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-[#161823]" role="status">
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
