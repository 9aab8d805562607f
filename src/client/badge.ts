/** Unread badges of the header entries: the number, or 99+ above 99, hidden at 0. */
export const BADGE_MAX = 99;

/** The text a badge shows for `count`: '' for none, '99+' above the maximum. */
export function badgeText(count: number, max = BADGE_MAX): string {
  if (!Number.isFinite(count) || count <= 0) return '';
  const n = Math.floor(count);
  return n > max ? `${max}+` : String(n);
}

/** Event any module may dispatch on `window` to set a badge: `new CustomEvent('sy:badge', { detail: { name: 'notice', count: 3 } })`. */
export const BADGE_EVENT = 'sy:badge';

export interface BadgeDetail {
  /** The `data-badge` name of the badge element (notice, message). */
  name: string;
  count: number;
}

/** Shows `count` on a badge element: the number for the eye, its `data-label` (with {count}) for screen readers. */
export function setBadge(el: HTMLElement, count: number): void {
  const text = badgeText(count);
  el.hidden = !text;
  const shown = document.createElement('span');
  shown.setAttribute('aria-hidden', 'true');
  shown.textContent = text;
  const spoken = document.createElement('span');
  spoken.className = 'sr-only';
  spoken.textContent = (el.dataset.label ?? '{count}').replace('{count}', text);
  el.replaceChildren(...(text ? [shown, spoken] : []));
}

/** Shows `count` on every badge named `name` (notice, message). */
export function showBadge(name: string, count: number, root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>(`[data-badge="${CSS.escape(String(name))}"]`))
    setBadge(el, Number(count));
}

/** Keeps every `[data-badge]` element in step with `sy:badge` events. */
export function watchBadges(root: ParentNode = document): void {
  addEventListener(BADGE_EVENT, (e) => {
    const { name, count } = (e as CustomEvent<BadgeDetail>).detail ?? {};
    showBadge(String(name), Number(count), root);
  });
}
