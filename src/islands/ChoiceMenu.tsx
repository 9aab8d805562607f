import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface ChoiceEntry<V> {
  value: V;
  label: string;
}

interface Props<V> {
  /** The menu's name (清晰度, 倍速). */
  name: string;
  /** What the button shows: the choice in force. */
  current: string;
  entries: ChoiceEntry<V>[];
  checked: V;
  onPick: (value: V) => void;
}

/** How the menu was opened: hover follows the pointer; a click or a key keeps it open until dismissed. */
type Via = 'hover' | 'press' | null;

/**
 * A menu of the control bar that picks one of a few values (清晰度, 倍速): a menu button (hover, click or keys open it;
 * arrows, Home and End move, Esc closes) with the entries as radio items.
 */
export function ChoiceMenu<V extends string | number>({ name, current, entries, checked, onPick }: Props<V>) {
  const [via, setVia] = useState<Via>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const focusIn = useRef(false);
  const id = useId();
  const open = via !== null;
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];

  // After the menu shows (or a hover-opened one is taken over by a key): focus to the checked entry.
  useEffect(() => {
    if (!via || !focusIn.current) return;
    focusIn.current = false;
    (items().find((el) => el.getAttribute('aria-checked') === 'true') ?? items()[0])?.focus();
  }, [via]);

  const close = (refocus: boolean) => {
    setVia(null);
    if (refocus) button.current?.focus();
  };
  const pick = (value: V) => {
    onPick(value);
    close(true);
  };
  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    focusIn.current = true;
    setVia('press');
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    // A row on a phone, a column above: either pair of arrows moves.
    const go = {
      ArrowDown: at + 1,
      ArrowRight: at + 1,
      ArrowUp: at - 1,
      ArrowLeft: at - 1,
      Home: 0,
      End: all.length - 1,
    }[e.key];
    if (go !== undefined) all[(go + all.length) % all.length]?.focus();
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') setVia(null);
    else return;
    // Keeps the page's shortcuts (↑/↓ page the feed, ←/→ seek, Esc leaves web fullscreen) out of the menu.
    if (e.key !== 'Tab') e.preventDefault();
  };

  return (
    <div
      // On a phone the menu is placed by the control bar (the nearest positioned box), so its row fits in the player.
      className="sm:relative"
      onPointerEnter={(e) => e.pointerType === 'mouse' && setVia((v) => v ?? 'hover')}
      onPointerLeave={(e) => e.pointerType === 'mouse' && setVia((v) => (v === 'hover' ? null : v))}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setVia((v) => (v === 'press' ? null : v))}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`${name} ${current}`}
        onClick={(e) => {
          // A click on a menu the pointer opened keeps it open; Enter or Space (detail 0) also moves focus in.
          focusIn.current = e.detail === 0;
          setVia((v) => (v === 'press' ? null : 'press'));
        }}
        onKeyDown={onButtonKey}
        // As wide as the bar's other buttons; on a phone its touch area reaches 44 px beyond its box.
        className="focus-ring relative flex h-8 min-w-8 items-center justify-center rounded px-1 text-xs hover:bg-white/15 before:(absolute content-[''] -inset-1.5) sm:before:hidden"
      >
        {current}
      </button>
      {/* A phone's player is too short for a column of 44 px entries above the bar: there they make a row. */}
      <div
        className={`absolute bottom-full right-2 pb-2 sm:(right-auto left-1/2 -translate-x-1/2) ${open ? '' : 'hidden'}`}
      >
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label={name}
          onKeyDown={onMenuKey}
          className="flex rounded-lg bg-black/80 sm:(flex-col py-1)"
        >
          {entries.map((e) => (
            <li key={e.value} role="none">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={checked === e.value}
                tabIndex={-1}
                onClick={() => pick(e.value)}
                className={`focus-ring block h-11 w-16 text-xs hover:bg-white/15 sm:(h-auto py-1) ${checked === e.value ? 'text-accent' : ''}`}
              >
                {e.label}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
