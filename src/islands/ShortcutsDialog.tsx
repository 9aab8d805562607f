import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { SHORTCUTS as Rows } from '../client/shortcuts.ts';
import type { t as T } from '../i18n/t.ts';
import { riCloseLine } from '../shared/icons.ts';
import { $shortcutsOpen, closeShortcuts } from '../stores/player.ts';
import { Icon } from './Icon.tsx';

interface Loaded {
  t: typeof T;
  rows: typeof Rows;
}

/**
 * The 快捷键 dialog: every shortcut with its key. Mount it anywhere; it opens with `openShortcuts()` (or ?)
 * and loads its table and strings only then, so mounting it costs a page next to nothing.
 */
export function ShortcutsDialog() {
  const open = useStore($shortcutsOpen);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (!open || loaded) return;
    void Promise.all([import('../i18n/t.ts'), import('../client/shortcuts.ts')]).then(([i18n, keys]) =>
      setLoaded({ t: i18n.t, rows: keys.SHORTCUTS }),
    );
  }, [open, loaded]);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open, loaded]);

  if (!loaded) return null;
  const { t, rows } = loaded;
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes the dialog; Escape already does so natively
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onClose={closeShortcuts}
      // A click on the backdrop lands on the dialog element itself.
      onClick={(e) => e.target === e.currentTarget && closeShortcuts()}
      className="m-auto w-[min(560px,92vw)] rounded-2xl border border-line bg-surface p-0 text-primary shadow-2xl backdrop:bg-black/50"
    >
      <div className="flex items-center justify-between border-b border-line px-6 py-4">
        <h2 id="shortcuts-title" className="text-lg font-semibold">
          {t('shortcuts.title')}
        </h2>
        <button
          type="button"
          onClick={closeShortcuts}
          className="btn-ghost h-8 w-8 px-0"
          aria-label={t('shortcuts.dismiss')}
        >
          <Icon svg={riCloseLine} className="text-xl" />
        </button>
      </div>
      <ul className="grid grid-cols-1 gap-x-8 gap-y-1 px-6 py-4 sm:grid-cols-2">
        {rows.map((row) => (
          <li key={row.label} className="flex min-h-9 items-center justify-between gap-3 text-sm">
            <span className="text-secondary">
              {t(row.label)}
              {row.note && <span className="ml-1 text-xs text-muted">{t(row.note)}</span>}
            </span>
            <kbd className="shrink-0 rounded-md border border-line bg-raised px-2 py-0.5 font-sans text-xs text-primary">
              {row.keys.startsWith('shortcuts.') ? t(row.keys as Parameters<typeof T>[0]) : row.keys}
            </kbd>
          </li>
        ))}
      </ul>
    </dialog>
  );
}
