/** A segmented control of `role="radio"` buttons: click or Space picks, arrows move and pick, one tab stop (ARIA radio group). */
export function bindRadioGroup(options: HTMLElement[], pick: (option: HTMLElement) => void): void {
  const sync = () => {
    const checked = options.find((o) => o.getAttribute('aria-checked') === 'true') ?? options[0];
    for (const o of options) o.tabIndex = o === checked ? 0 : -1;
  };
  const choose = (o: HTMLElement) => {
    pick(o);
    sync();
  };
  options.forEach((o, i) => {
    o.addEventListener('click', () => choose(o));
    o.addEventListener('keydown', (e) => {
      const step =
        e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      const next = options[(i + step + options.length) % options.length]!;
      next.focus();
      choose(next);
    });
  });
  // aria-checked changes from elsewhere too (the theme store, another tab): keep the tab stop on the checked one.
  new MutationObserver(sync).observe(options[0]!.parentElement!, {
    attributes: true,
    subtree: true,
    attributeFilter: ['aria-checked'],
  });
  sync();
}
