import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { apiGet } from '../stores/api.ts';
import { t } from '../i18n/t.ts';
import { riCloseLine, riHeart3Line, riLiveLine, riUserHeartLine } from '../shared/icons.ts';
import { $loginOpen, closeLogin } from '../stores/auth.ts';
import { rememberedEmail } from '../stores/user.ts';
import { Icon } from './Icon.tsx';
import { LoginCodePanel } from './LoginCodePanel.tsx';
import { LoginPasswordPanel } from './LoginPasswordPanel.tsx';
import { LoginQrPanel } from './LoginQrPanel.tsx';

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

  // What the viewer types in the email box, clearing it included, is theirs: a pre-fill arriving later leaves it.
  const edited = useRef(false);
  const editEmail = useCallback((value: string) => {
    edited.current = true;
    setEmail(value);
  }, []);

  // Pre-fill: the remembered email, else the demo account when the server has one.
  useEffect(() => {
    const remembered = rememberedEmail();
    if (remembered) setEmail((typed) => typed || remembered);
    apiGet<{ email: string | null; password?: string }>('/passport/demo', {}, { quiet: true })
      .then((demo) => {
        if (!demo.email || !demo.password) return;
        // The demo's password only beside the demo's email: not once the viewer typed an address of their own.
        if ((!remembered || remembered === demo.email) && !edited.current) {
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
      e.key === 'ArrowRight'
        ? (i + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (i + TABS.length - 1) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -1;
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
          <div
            role="tablist"
            aria-label={t('login.tabs')}
            className="mb-5 flex gap-6 border-b border-line"
            onKeyDown={onKeyTabs}
          >
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
          <div className="grid">
            <Panel id={`${baseId}-panel-qr`} tabId={`${baseId}-tab-qr`} hidden={tab !== 'qr'}>
              {open && tab === 'qr' && <LoginQrPanel />}
            </Panel>
            <Panel id={`${baseId}-panel-code`} tabId={`${baseId}-tab-code`} hidden={tab !== 'code'}>
              <LoginCodePanel email={email} setEmail={editEmail} idPrefix={`${baseId}-code`} />
            </Panel>
            <Panel id={`${baseId}-panel-password`} tabId={`${baseId}-tab-password`} hidden={tab !== 'password'}>
              <LoginPasswordPanel
                email={email}
                setEmail={editEmail}
                demoPassword={demoPassword}
                idPrefix={`${baseId}-pw`}
              />
            </Panel>
          </div>
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
  const panel = root.querySelector<HTMLElement>('[role="tabpanel"][data-shown]');
  const empty = [...(panel?.querySelectorAll<HTMLInputElement>('input') ?? [])].find((i) => !i.value);
  const target =
    empty ??
    panel?.querySelector<HTMLElement>('button[type="submit"]:not(:disabled)') ??
    root.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
  target?.focus();
}

/**
 * A tab's panel. The three share one grid cell and a hidden one stays laid out (invisible and inert), so the dialog is
 * as tall as its tallest panel and keeps its height from tab to tab.
 */
function Panel({ id, tabId, hidden, children }: { id: string; tabId: string; hidden: boolean; children: ReactNode }) {
  return (
    <div
      id={id}
      role="tabpanel"
      aria-labelledby={tabId}
      data-shown={hidden ? undefined : ''}
      inert={hidden}
      className={`[grid-area:1/1] ${hidden ? 'invisible' : ''}`}
    >
      {children}
    </div>
  );
}
