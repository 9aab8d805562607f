import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useEffect, useId, useRef, useState } from 'react';
import { riFileList3Line, riLogoutBoxRLine } from '../shared/icons.ts';
import { $auth, $sessionEnded, savedLogin } from '../stores/auth.ts';
import { $marks } from '../stores/marks.ts';
import { Icon } from './Icon.tsx';
import { LoginButton, LoginHost, type LoginPopText } from './LoginButton.tsx';
import { SwitchTrack } from './SwitchTrack.tsx';

type UserStores = typeof import('../stores/user.ts') & { formatCount: (n: number) => string };

/** The menu's strings (from the catalogue, passed by the server so the page's first load stays small). */
export interface UserMenuText {
  account: string;
  following: string;
  followers: string;
  /** `icon`: an export of src/shared/icons.ts. */
  links: { label: string; href: string; icon: string; hint?: string }[];
  /** 我的订单, where the deployment has an orders page (ORDERS_URL). */
  orders?: { label: string; href: string };
  logout: string;
  saveLoginInfo: string;
  /**
   * The 登录 button and its popover, shown instead once the session has ended; left out on a page every viewer shares,
   * whose own 登录 shows again then (the header's visitor part).
   */
  login?: string;
  loginPop?: LoginPopText;
}

interface Props {
  /**
   * The server's view of the viewer, shown until the API says more; empty on a page every viewer shares, where the
   * saved login names them (as the header's inline script drew it before first paint), then the marks call.
   */
  nickname: string;
  avatar: string;
  /** `account` may hold `{nickname}`, filled in here. */
  text: UserMenuText;
}

const HOVER_OPEN_MS = 150;
const HOVER_CLOSE_MS = 250;
// Stand-ins until the user store has loaded (it comes with the API client, on the menu's first opening).
const NO_USER = atom<{ userInfo: null }>({ userInfo: null });
const SAVE_DEFAULT = atom(true);

/** The header's avatar popover: who is logged in, their counts, their tabs, and logout. */
export function UserMenu({ nickname: rendered, avatar: renderedAvatar, text }: Props) {
  const [saved] = useState(() => (rendered ? null : savedLogin()));
  const marked = useStore($marks)?.viewer;
  const nickname = marked?.nickname ?? (rendered || saved?.nickname || '');
  const avatar = marked?.avatar ?? (renderedAvatar || saved?.avatar || '');
  const [stores, setStores] = useState<UserStores | null>(null);
  const [open, setOpen] = useState(false);
  const pinned = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  // Hydrates as the server drew it (logged in), then follows the session.
  const ended = useStore($sessionEnded, { ssr: 'initial' });

  useEffect(() => {
    if (!$sessionEnded.get()) $auth.setKey('isLogin', true);
    return () => clearTimeout(timer.current);
  }, []);

  // Counts fresh from the API each time the menu opens (the first opening also starts the client session).
  useEffect(() => {
    if (!open) return;
    void Promise.all([import('../stores/user.ts'), import('../i18n/t.ts')]).then(([m, { formatCount }]) => {
      setStores({ ...m, formatCount });
      return m.startSession(true) ?? m.loadUserInfo();
    });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  function show(pin: boolean, moveFocus = false) {
    clearTimeout(timer.current);
    pinned.current = pinned.current || pin;
    setOpen(true);
    if (moveFocus)
      requestAnimationFrame(() => panel.current?.querySelector<HTMLElement>('a:not([tabindex="-1"]), button')?.focus());
  }

  function close(returnFocus: boolean) {
    clearTimeout(timer.current);
    pinned.current = false;
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  if (ended) return text.login ? <LoginButton variant="header" label={text.login} pop={text.loginPop} /> : null;

  // The dialog host sits outside the menu's root, so events inside the login dialog never count as inside the menu.
  return (
    <>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- hover opens the menu for the pointer; its button inside is the keyboard path */}
      <div
        ref={root}
        className="relative ml-2"
        onPointerEnter={(e) => {
          if (e.pointerType !== 'mouse') return;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => show(false), HOVER_OPEN_MS);
        }}
        onPointerLeave={(e) => {
          if (e.pointerType !== 'mouse' || pinned.current) return;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => close(false), HOVER_CLOSE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            close(true);
          }
        }}
        onBlur={(e) => {
          if (open && e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) close(false);
        }}
      >
        <button
          ref={button}
          type="button"
          // A thumb's 44 px on a phone around the 36 px avatar.
          className="focus-ring block rounded-full lt-tablet:p-1"
          // Unnamed on the server, it keeps `{nickname}` for the header's inline script to fill before first paint.
          aria-label={nickname ? text.account.replace('{nickname}', nickname) : text.account}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          // Enter or Space (detail 0) moves focus into the menu; a mouse click leaves it on the avatar.
          onClick={(e) => (open && pinned.current ? close(false) : show(true, e.detail === 0))}
        >
          <img
            src={avatar || undefined}
            alt=""
            width={36}
            height={36}
            className="block h-9 w-9 rounded-full bg-raised object-cover"
          />
        </button>
        {open && (
          <Panel id={panelId} panelRef={panel} stores={stores} nickname={nickname} avatar={avatar} text={text} />
        )}
      </div>
      <LoginHost />
    </>
  );
}

interface PanelProps {
  id: string;
  panelRef: React.RefObject<HTMLDivElement | null>;
  stores: UserStores | null;
  nickname: string;
  avatar: string;
  text: UserMenuText;
}

function Panel({ id, panelRef, stores, nickname, avatar, text }: PanelProps) {
  const { userInfo } = useStore(stores?.$user ?? NO_USER);
  const saveLoginInfo = useStore(stores?.$saveLoginInfo ?? SAVE_DEFAULT);
  const [leaving, setLeaving] = useState(false);
  // The saved choice arrives with the stores after the panel is drawn: only the viewer's own flip eases.
  const [flipped, setFlipped] = useState(false);
  const nameId = useId();
  const shownAvatar = (stores && stores.avatarOf(userInfo)) ?? avatar;
  const count = (n: number | undefined) => (stores && typeof n === 'number' ? stores.formatCount(n) : '-');

  return (
    <div
      ref={panelRef}
      id={id}
      role="dialog"
      aria-labelledby={nameId}
      className="absolute right-0 top-full z-30 mt-1.5 w-72 rounded-xl border border-line bg-surface p-4 text-sm text-primary shadow-xl"
    >
      <div className="flex items-center gap-3">
        <a href="/user/self" className="focus-ring shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
          <img src={shownAvatar} alt="" width={48} height={48} className="block h-12 w-12 rounded-full object-cover" />
        </a>
        <div className="min-w-0">
          <a
            id={nameId}
            href="/user/self"
            className="focus-ring block truncate text-base font-semibold hover:text-accent-text"
          >
            {userInfo?.nickname ?? nickname}
          </a>
          {/* Following, then followers: each its own field (the spec's crossed wiring is a defect, not copied). */}
          <p className="mt-1 flex gap-4 text-secondary">
            <span>
              {text.following} <b className="font-semibold text-primary">{count(userInfo?.following_count)}</b>
            </span>
            <span>
              {text.followers} <b className="font-semibold text-primary">{count(userInfo?.follower_count)}</b>
            </span>
          </p>
        </div>
      </div>

      <ul className="mt-4 flex flex-col border-t border-line pt-2">
        {text.links.map((l) => (
          <li key={l.href}>
            <a href={l.href} className="focus-ring flex h-10 items-center gap-3 rounded-lg px-2 hover:bg-hover">
              <Icon svg={l.icon} className="text-lg text-secondary" />
              <span>
                {l.label}
                {l.hint && <span className="ml-1 text-xs text-muted">{l.hint}</span>}
              </span>
            </a>
          </li>
        ))}
        {text.orders && (
          <li>
            <a
              href={text.orders.href}
              className="focus-ring flex h-10 items-center gap-3 rounded-lg px-2 hover:bg-hover"
            >
              <Icon svg={riFileList3Line} className="text-lg text-secondary" />
              <span>{text.orders.label}</span>
            </a>
          </li>
        )}
      </ul>

      <div className="mt-2 flex items-center justify-between border-t border-line pt-3">
        <button
          type="button"
          className="btn-ghost px-2"
          disabled={leaving || !stores}
          onClick={() => {
            setLeaving(true);
            void stores?.logout({ saveLoginInfo });
          }}
        >
          <Icon svg={riLogoutBoxRLine} />
          {text.logout}
        </button>
        <button
          type="button"
          role="switch"
          aria-checked={saveLoginInfo}
          disabled={!stores}
          className="focus-ring flex items-center gap-2 rounded-md px-1 text-xs text-secondary"
          onClick={() => {
            setFlipped(true);
            stores?.$saveLoginInfo.set(!saveLoginInfo);
          }}
        >
          {text.saveLoginInfo}
          <SwitchTrack on={saveLoginInfo} eased={flipped} off="border border-line bg-raised" knob="shadow" />
        </button>
      </div>
    </div>
  );
}
