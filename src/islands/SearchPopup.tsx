import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import {
  riArrowDownSLine,
  riArrowUpSLine,
  riCloseLine,
  riFireFill,
  riFireLine,
  riRefreshLine,
  riSearchLine,
} from '../shared/icons.ts';
import {
  $guesses,
  $hotWords,
  $suggestions,
  closeSuggestions,
  HOT_SHOWN,
  loadPanel,
  nextGuesses,
  stopSuggesting,
  suggest,
} from '../stores/search-panel.ts';
import { $searchHistory, clearHistory, HISTORY_FOLDED, removeHistory } from '../stores/search-history.ts';
import { Icon } from './Icon.tsx';
import { Marked } from './Marked.tsx';
import type { SearchBoxText } from '../shared/search-box-text.ts';

/** What the input needs to know for its combobox attributes. */
export interface PopupState {
  expanded: boolean;
  /** The id of what is shown (the suggestion list or the recommendation panel). */
  controls?: string;
  /** Set while the suggestion list is shown. */
  listId?: string;
  activeId?: string;
}

interface Props {
  /** The whole box: presses and focus outside it close the popup. */
  root: RefObject<HTMLDivElement | null>;
  /** The box's input: its keys drive the popup (↑/↓ through suggestions, Enter takes one, Esc closes). */
  input: RefObject<HTMLInputElement | null>;
  /** The normalized text of the box; '' shows the recommendation panel. */
  query: string;
  text: SearchBoxText;
  onSearch(word: string): void;
  onState(state: PopupState): void;
  onClose(): void;
}

/** The 换一换 spin lasts 200 ms. */
const SPIN_MS = 200;

/** The search box's popup: suggestions while typing, else 历史记录 / 猜你想搜 (换一换) / 热搜. */
export function SearchPopup({ root, input, query, text, onSearch, onState, onClose }: Props) {
  const suggestions = useStore($suggestions);
  const [active, setActive] = useState(-1);
  const hot = useStore($hotWords);
  const guesses = useStore($guesses);
  const [turns, setTurns] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [unfolded, setUnfolded] = useState(false);
  const history = useStore($searchHistory);
  const spinTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();
  const listId = `${id}-list`;
  const panelId = `${id}-panel`;
  const optionId = (i: number) => `${id}-opt-${i}`;

  const typing = query !== '';
  const showList = typing && suggestions.length > 0;

  // The input's keys, the presses outside and focus leaving (Tab away); moves into the panel (its buttons) keep it open.
  const keys = useRef({ showList, suggestions, active, onClose, onSearch });
  keys.current = { showList, suggestions, active, onClose, onSearch };
  useEffect(() => {
    const box = root.current;
    const field = input.current;
    if (!box || !field) return;
    const onKey = (ev: KeyboardEvent) => {
      const { showList: listed, suggestions: words, active: at, onClose: close, onSearch: search } = keys.current;
      if (ev.key === 'Escape') {
        ev.preventDefault();
        close();
      } else if ((ev.key === 'ArrowDown' || ev.key === 'ArrowUp') && listed) {
        ev.preventDefault();
        const n = words.length;
        setActive(ev.key === 'ArrowDown' ? (at + 1) % n : at <= 0 ? n - 1 : at - 1);
      } else if (ev.key === 'Enter' && listed && at >= 0) {
        ev.preventDefault();
        search(words[at]!);
      }
    };
    const onDown = (ev: PointerEvent) => {
      if (!box.contains(ev.target as Node)) keys.current.onClose();
    };
    const onFocusOut = (ev: FocusEvent) => {
      if (!box.contains(ev.relatedTarget as Node | null)) keys.current.onClose();
    };
    field.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    box.addEventListener('focusout', onFocusOut);
    return () => {
      field.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
      box.removeEventListener('focusout', onFocusOut);
    };
  }, [root, input]);

  useEffect(() => {
    onState(
      typing
        ? showList
          ? { expanded: true, controls: listId, listId, ...(active >= 0 ? { activeId: optionId(active) } : {}) }
          : { expanded: false }
        : { expanded: true, controls: panelId },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId derives from useId, stable for this popup
  }, [typing, showList, active, onState, listId, panelId]);

  useEffect(() => () => onState({ expanded: false }), [onState]);
  useEffect(() => () => clearTimeout(spinTimer.current), []);

  // The recommendation panel's data: when missing or older than a minute.
  useEffect(() => (typing ? undefined : loadPanel()), [typing]);

  // Completions of the typed text; a new list has no active option yet.
  useEffect(() => {
    suggest(query);
    return stopSuggesting;
  }, [query]);
  useEffect(() => () => closeSuggestions(), []);
  useEffect(() => setActive(-1), [suggestions]);

  const refreshGuesses = () => {
    setTurns((n) => n + 1);
    setSpinning(true);
    clearTimeout(spinTimer.current);
    spinTimer.current = setTimeout(() => setSpinning(false), SPIN_MS);
    void nextGuesses();
  };

  if (typing) {
    if (!showList) return null;
    return (
      <ul
        id={listId}
        role="listbox"
        aria-label={text.suggestions}
        className="absolute inset-x-0 top-full z-30 mt-2 overflow-hidden rounded-xl border border-line bg-surface py-2 shadow-xl"
      >
        {suggestions.map((word, i) => (
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the combobox input drives keyboard selection (aria-activedescendant); clicks are the pointer path
          <li
            key={word}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Keep focus in the input: pressing an option must not blur the box before the search runs.
            onPointerDown={(ev) => ev.preventDefault()}
            onPointerMove={() => setActive(i)}
            onClick={() => onSearch(word)}
            className={`flex cursor-pointer items-center gap-3 px-4 py-2 text-sm text-primary ${i === active ? 'bg-hover' : ''}`}
          >
            <Icon svg={riSearchLine} className="shrink-0 text-muted" />
            <span className="truncate">
              <Marked text={word} keyword={query} />
            </span>
          </li>
        ))}
      </ul>
    );
  }

  const shownHistory = unfolded ? history : history.slice(0, HISTORY_FOLDED);
  return (
    <div
      id={panelId}
      role="dialog"
      aria-label={text.panel}
      tabIndex={-1}
      className="absolute inset-x-0 top-full z-30 mt-2 flex max-h-[70vh] flex-col gap-5 overflow-auto rounded-xl border border-line bg-surface p-4 text-sm shadow-xl outline-none"
    >
      {history.length > 0 && (
        <section aria-labelledby={`${id}-history`}>
          <div className="mb-2 flex items-center justify-between">
            <h2 id={`${id}-history`} className="text-xs font-medium text-secondary">
              {text.history}
            </h2>
            <button
              type="button"
              className="focus-ring rounded text-xs text-secondary hover:text-primary"
              onClick={() => {
                clearHistory();
                input.current?.focus();
              }}
            >
              {text.clearAll}
            </button>
          </div>
          <ul className="flex flex-wrap items-center gap-2">
            {shownHistory.map((e) => (
              <li
                key={e.id}
                className="group flex max-w-full items-center rounded-full bg-raised text-secondary hover:bg-hover"
              >
                <button
                  type="button"
                  className="focus-ring max-w-48 truncate rounded-full py-1 pl-3 pr-1 hover:text-primary"
                  onClick={() => onSearch(e.text)}
                >
                  {e.text}
                </button>
                <button
                  type="button"
                  aria-label={`${text.remove} ${e.text}`}
                  className="focus-ring mr-1 flex h-5 w-5 items-center justify-center rounded-full text-muted opacity-60 hover:text-primary group-hover:opacity-100 focus-visible:opacity-100"
                  onClick={() => {
                    removeHistory(e.id);
                    input.current?.focus();
                  }}
                >
                  <Icon svg={riCloseLine} className="text-xs" />
                </button>
              </li>
            ))}
            {history.length > HISTORY_FOLDED && (
              <li>
                <button
                  type="button"
                  aria-label={unfolded ? text.collapse : text.expand}
                  aria-expanded={unfolded}
                  className="focus-ring flex h-7 w-7 items-center justify-center rounded-full bg-raised text-muted hover:bg-hover hover:text-primary"
                  onClick={() => setUnfolded((u) => !u)}
                >
                  <Icon svg={unfolded ? riArrowUpSLine : riArrowDownSLine} />
                </button>
              </li>
            )}
          </ul>
        </section>
      )}

      <section aria-labelledby={`${id}-guess`}>
        <div className="mb-2 flex items-center justify-between">
          <h2 id={`${id}-guess`} className="text-xs font-medium text-secondary">
            {text.guess}
          </h2>
          <button
            type="button"
            data-spinning={spinning}
            className="focus-ring flex items-center gap-1 rounded text-xs text-secondary hover:text-primary"
            onClick={refreshGuesses}
          >
            <Icon
              svg={riRefreshLine}
              style={{ transform: `rotate(${turns * 360}deg)`, transition: `transform ${SPIN_MS}ms linear` }}
            />
            {text.refresh}
          </button>
        </div>
        <ul className="grid grid-cols-2 gap-x-4 gap-y-1" aria-labelledby={`${id}-guess`}>
          {guesses.map((word) => (
            <li key={word} className="min-w-0">
              <button
                type="button"
                className="focus-ring w-full truncate rounded py-1 text-left text-primary hover:text-accent-text"
                onClick={() => onSearch(word)}
              >
                {word}
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby={`${id}-hot`}>
        <h2 id={`${id}-hot`} className="mb-2 flex items-center gap-1 text-xs font-medium text-secondary">
          <Icon svg={riFireLine} className="text-accent" />
          {text.hot}
        </h2>
        <ol className="flex flex-col gap-1" aria-labelledby={`${id}-hot`}>
          {hot.slice(0, HOT_SHOWN).map((w, i) => {
            const top = i < 3;
            return (
              <li key={w.id}>
                <button
                  type="button"
                  data-rank={i + 1}
                  data-top={top}
                  className="focus-ring flex w-full items-center gap-3 rounded py-1 text-left text-primary hover:text-accent-text"
                  onClick={() => onSearch(w.word)}
                >
                  <span
                    className={`w-4 shrink-0 text-center font-semibold ${top ? 'text-accent-text' : 'text-secondary'}`}
                  >
                    <span className="sr-only">{text.rank.replace('{rank}', String(i + 1))}</span>
                    <span aria-hidden="true">{i + 1}</span>
                  </span>
                  <span className="min-w-0 truncate">{w.word}</span>
                  {top && <Icon svg={riFireFill} className="shrink-0 text-accent" />}
                </button>
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}
