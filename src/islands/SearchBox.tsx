import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { riCloseCircleFill, riSearchLine } from '../shared/icons.ts';
import { MAX_QUERY, normalizeQuery } from '../shared/search-query.ts';
import { Icon } from './Icon.tsx';
import type { SearchBoxText } from '../shared/search-box-text.ts';
import type { PopupState } from './SearchPopup.tsx';

interface Props {
  /** header: results open in a new window; inline: the results page's own box, same window. */
  mode?: 'header' | 'inline';
  initial?: string;
  /** A fixed id for the input (the header's, for anything that focuses it); otherwise a generated one. */
  inputId?: string;
  text: SearchBoxText;
}

// The panels, the keyboard and the history store load when the box is first opened (the popup imports the store), which
// keeps them out of every page's first load; a search made before that still works, it just waits for the store.
const loadPopup = () => import('./SearchPopup.tsx');
const SearchPopup = lazy(() => loadPopup().then((m) => ({ default: m.SearchPopup })));
const loadHistory = () => import('../stores/search-history.ts');

const CLOSED: PopupState = { expanded: false };

/**
 * The search box, a combobox: focused and empty it shows 历史记录, 猜你想搜 and 热搜; while typing, up to 8 suggestions.
 * Enter or 搜索 searches the trimmed text (nothing when blank); a click outside, Esc or leaving it closes the panel.
 */
export function SearchBox({ mode = 'header', initial = '', inputId, text }: Props) {
  const [value, setValue] = useState(initial);
  const [open, setOpen] = useState(false);
  const [popup, setPopup] = useState<PopupState>(CLOSED);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const fieldId = inputId ?? `${id}-input`;

  // Text typed (and focus taken) before hydration is kept.
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    if (el.value !== value) setValue(el.value);
    if (document.activeElement === el) setOpen(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at hydration
  }, []);

  const search = (raw: string) => {
    if (!normalizeQuery(raw)) return;
    void loadHistory().then(({ submitSearch }) => {
      const searched = submitSearch(raw, mode === 'header' ? 'new' : 'same');
      if (searched === null) return;
      setValue(searched);
      setOpen(false);
    });
  };

  const inline = mode === 'inline';
  const shown = open && popup.expanded;

  return (
    <div
      ref={root}
      className={inline ? 'relative mx-auto w-full max-w-2xl' : 'relative w-full max-w-[480px]'}
      onPointerEnter={() => void loadPopup()}
    >
      <form
        role="search"
        action="/search"
        method="get"
        className={`flex w-full overflow-hidden rounded-xl border border-line bg-raised focus-within:border-accent ${inline ? 'h-11' : 'h-10'}`}
        onSubmit={(ev) => {
          ev.preventDefault();
          // What the box shows: text typed while the island hydrated can reach the DOM before it reaches the state.
          search(input.current?.value ?? value);
        }}
      >
        <label className="sr-only" htmlFor={fieldId}>
          {text.placeholder}
        </label>
        <input
          ref={input}
          id={fieldId}
          name="q"
          // Not type=search: its built-in cancel button would double the clear button.
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-haspopup={popup.listId ? 'listbox' : 'dialog'}
          aria-expanded={shown}
          aria-controls={shown ? popup.controls : undefined}
          aria-activedescendant={shown ? popup.activeId : undefined}
          maxLength={MAX_QUERY}
          autoComplete="off"
          enterKeyHint="search"
          placeholder={text.placeholder}
          value={value}
          onChange={(ev) => {
            setValue(ev.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onKeyDown={(ev) => {
            // The open popup handles the keyboard itself; closed, an arrow opens it.
            if (!open && (ev.key === 'ArrowDown' || ev.key === 'ArrowUp')) setOpen(true);
            // Esc leaves the box (after Shift+F the page's keys work again); the popup closes with it.
            if (ev.key === 'Escape' && !ev.nativeEvent.isComposing) {
              setOpen(false);
              ev.currentTarget.blur();
            }
          }}
          className="min-w-0 flex-1 bg-transparent px-4 text-sm text-primary outline-none placeholder:text-muted"
        />
        {value !== '' && (
          <button
            type="button"
            aria-label={text.clear}
            className="focus-ring flex w-8 shrink-0 items-center justify-center text-muted hover:text-primary"
            onClick={() => {
              setValue('');
              setOpen(true);
              input.current?.focus();
            }}
          >
            <Icon svg={riCloseCircleFill} />
          </button>
        )}
        <button
          type="submit"
          className="focus-ring flex shrink-0 items-center gap-1 px-4 text-sm text-primary hover:text-accent-text"
        >
          <Icon svg={riSearchLine} />
          {text.button}
        </button>
      </form>
      {open && (
        <Suspense fallback={null}>
          <SearchPopup
            root={root}
            input={input}
            query={normalizeQuery(value)}
            text={text}
            onSearch={search}
            onState={setPopup}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
