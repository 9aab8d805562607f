import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { $loginOpen, hasSavedToken, openLogin } from '../stores/auth.ts';

// The dialog's code loads on the first open (or on hover of a login button), never with the page.
const loadDialog = () => import('./LoginDialog.tsx');
const LoginDialog = lazy(() => loadDialog().then((m) => ({ default: m.LoginDialog })));

let hostClaimed = false;

/** Mounts the login dialog when `openLogin()` is first called; only the first host on a page renders it. */
export function LoginHost() {
  const open = useStore($loginOpen);
  const [owner, setOwner] = useState(false);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (hostClaimed) return;
    hostClaimed = true;
    setOwner(true);
    return () => {
      hostClaimed = false;
    };
  }, []);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  if (!owner || !wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoginDialog />
    </Suspense>
  );
}

/** One entry of the logged-out popover: a link, or 快捷键, which opens the shortcuts dialog. */
export type LoginPopItem = { label: string; href: string } | { label: string; opens: 'shortcuts' };

/** The logged-out popover's strings (from the catalogue, passed by the server so the page's first load stays small). */
export interface LoginPopText {
  title: string;
  hint: string;
  /** Only what leads somewhere: the server leaves out an entry this site or deployment has nothing behind. */
  items: LoginPopItem[];
}

interface Props {
  /** header: the header's button with the logged-out popover; prompt: the large button of a login prompt. */
  variant?: 'header' | 'prompt';
  /** The button's text (登录). */
  label: string;
  pop?: LoginPopText;
}

const HOVER_OPEN_MS = 150;
const HOVER_CLOSE_MS = 200;
const POP_ITEM = 'focus-ring flex h-8 w-full items-center rounded-md px-2 text-left text-primary hover:bg-hover';

/** 快捷键: the same dialog as 设置 → 快捷键; its code loads on this click. */
function openShortcuts(returnTo: HTMLElement | null): void {
  void import('../client/chrome/shortcuts.ts').then((m) => m.openShortcutsDialog(returnTo));
}

/** The 登录 button: opens the login dialog; in the header it also shows the logged-out popover on hover or focus. */
export function LoginButton({ variant = 'header', label, pop: text }: Props) {
  const [pop, setPop] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const loginButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    // The server saw no session, yet this browser kept a token: let the API judge it (an expired one gets the 401 rule).
    if (hasSavedToken()) void import('../stores/user.ts').then((m) => m.startSession(false));
    return () => clearTimeout(timer.current);
  }, []);

  const later = (next: boolean, ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setPop(next), ms);
  };

  const button = (
    <button
      ref={loginButton}
      type="button"
      // Never two lines (登 / 录) when a narrow row squeezes it: the text beside it wraps instead.
      className={`btn-accent shrink-0 whitespace-nowrap ${variant === 'header' ? 'h-9 px-5 lt-tablet:h-11' : 'h-10 px-8 lt-tablet:(h-11 px-6)'}`}
      aria-haspopup="dialog"
      onClick={() => {
        setPop(false);
        openLogin();
      }}
      onPointerEnter={() => void loadDialog()}
    >
      {label}
    </button>
  );

  if (variant === 'prompt' || !text) {
    return (
      <>
        {button}
        <LoginHost />
      </>
    );
  }

  // The dialog host sits beside the hover area: focus and pointer events inside the dialog must not reopen the popover.
  return (
    <>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- hover opens the menu for the pointer; its button inside is the keyboard path */}
      <div
        className="relative ml-2"
        onPointerEnter={() => later(true, HOVER_OPEN_MS)}
        onPointerLeave={() => later(false, HOVER_CLOSE_MS)}
        onFocus={(e) => e.target.matches(':focus-visible') && later(true, 0)}
        // Only focus leaving the area closes it: a press inside (on a link, or the box, which takes focus for that) moves
        // focus from 登录, and closing then would take the link away before the release, and the click with it.
        onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && later(false, 0)}
        onKeyDown={(e) => e.key === 'Escape' && setPop(false)}
      >
        {button}
        {pop && (
          <div
            role="dialog"
            aria-labelledby={titleId}
            tabIndex={-1}
            className="absolute right-0 top-full z-30 mt-1.5 w-64 rounded-xl border border-line bg-surface p-4 text-sm shadow-xl"
          >
            <p id={titleId} className="font-semibold text-primary">
              {text.title}
            </p>
            <p className="mt-1 text-secondary">{text.hint}</p>
            <ul className="mt-3 flex flex-col gap-1 border-t border-line pt-2">
              {text.items.map((item) => (
                <li key={item.label}>
                  {'href' in item ? (
                    <a href={item.href} className={POP_ITEM}>
                      {item.label}
                    </a>
                  ) : (
                    <button
                      type="button"
                      className={POP_ITEM}
                      onClick={() => {
                        setPop(false);
                        openShortcuts(loginButton.current);
                      }}
                    >
                      {item.label}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <LoginHost />
    </>
  );
}
