/**
 * Popovers of the header and the sidebar on the platform: the Popover API gives the top layer,
 * light dismiss (outside click, Esc), one open popover at a time and no layout shift; CSS anchor positioning places
 * them (bottom-end, no arrow). This module adds what the platform lacks: hover with a short delay, closing when the
 * pointer or the keyboard focus leaves, focus moved in when opened from the keyboard and given back on close.
 */
import { isPending, loadParts } from './chrome/parts.ts';

export const OPEN_DELAY_MS = 150;
export const CLOSE_DELAY_MS = 200;
/** Gap between a trigger and its popover; the same as the CSS margin of `.chrome-pop`. */
const GAP = 6;

/** How the open popover was opened: one opened by hover or a mouse click closes when the pointer leaves it; one opened by a key stays until dismissed. */
type Via = 'hover' | 'pointer' | 'key';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

function focusables(pop: HTMLElement): HTMLElement[] {
  return [...pop.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.checkVisibility?.() ?? true);
}

function focusFirst(pop: HTMLElement): void {
  (focusables(pop)[0] ?? pop).focus({ preventScroll: true });
}

// Browsers without CSS anchor positioning get the same placement from the trigger's box.
function place(trigger: HTMLElement, pop: HTMLElement): void {
  if (CSS.supports?.('position-area', 'bottom')) return;
  const r = trigger.getBoundingClientRect();
  const width = pop.offsetWidth;
  const up = pop.dataset.placement === 'top-start';
  pop.style.position = 'fixed';
  pop.style.margin = '0';
  pop.style.left = `${Math.max(8, up ? r.left : Math.min(r.right - width, innerWidth - width - 8))}px`;
  pop.style.top = up ? 'auto' : `${r.bottom + GAP}px`;
  pop.style.bottom = up ? `${innerHeight - r.top + GAP}px` : 'auto';
}

/** Wires one trigger (a `popovertarget` button, or a link that also leads somewhere) to its `popover="auto"` element. */
export function bindPopover(trigger: HTMLElement, pop: HTMLElement): void {
  // How the popover is open now, null while closed. Set as it opens (beforetoggle, in the same task as the open) and
  // cleared as it closes, never by a toggle event that comes a task later and may be older than the state it reports.
  let via: Via | null = null;
  // How the next open was asked for (a click or a key on the trigger, or the hover timer), taken by that open.
  let asked: Via | null = null;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  let focusInside = false;
  const isOpen = () => pop.matches(':popover-open');

  const show = (how: Via) => {
    if (isOpen()) return;
    // Contents still on their way (src/client/chrome/parts.ts): open once they are in, if the pointer is still there.
    if (isPending(pop)) {
      void loadParts().then(() => !isPending(pop) && (how !== 'hover' || trigger.matches(':hover')) && show(how));
      return;
    }
    asked = how;
    try {
      // `source` ties the popover to its trigger (focus return, accessibility tree); older engines take no options.
      (pop.showPopover as (o?: { source?: HTMLElement }) => void)({ source: trigger });
    } catch {
      pop.showPopover();
    }
  };
  const hide = () => {
    if (isOpen()) pop.hidePopover();
  };
  /** A click or a key takes over the open popover: the pointer leaving no longer closes it. */
  const keep = (how: Via) => {
    via = how;
    clearTimeout(closeTimer);
  };
  /** A keyboard open moves focus in: onto the first control, or the box itself while its contents are on their way. */
  const focusIn = () => {
    const active = document.activeElement;
    if (isOpen() && via === 'key' && (active === pop || !pop.contains(active))) focusFirst(pop);
  };

  const pointerEnter = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    clearTimeout(closeTimer);
    // The delay also keeps a pointer crossing other entries on its way into an open popover from switching popovers.
    if (!isOpen()) openTimer = setTimeout(() => show('hover'), OPEN_DELAY_MS);
  };
  const pointerLeave = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    clearTimeout(openTimer);
    if (via === 'key') return;
    // Checked again when due: a key may have taken the popover over in between.
    closeTimer = setTimeout(() => via !== 'key' && hide(), CLOSE_DELAY_MS);
  };
  for (const el of [trigger, pop]) {
    el.addEventListener('pointerenter', pointerEnter);
    el.addEventListener('pointerleave', pointerLeave);
  }

  trigger.addEventListener('click', (e) => {
    if (!trigger.hasAttribute('popovertarget')) return;
    const how: Via = e.detail === 0 ? 'key' : 'pointer';
    clearTimeout(openTimer);
    if (isOpen() && via === 'hover') {
      // Hover already opened it: the click keeps it open instead of toggling it shut.
      e.preventDefault();
      keep(how);
      if (how === 'key') focusFirst(pop);
      return;
    }
    // Otherwise the platform toggles it right after this listener: an open takes `how` (beforetoggle below).
    if (!isOpen()) asked = how;
  });

  trigger.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown') return;
    e.preventDefault();
    clearTimeout(openTimer);
    if (isOpen()) keep('key');
    else show('key');
    focusFirst(pop);
  });

  pop.addEventListener('keydown', (e) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const target = e.target as HTMLElement;
    // Radios and fields use the arrows themselves.
    if (target.matches('input, textarea, select, [role="radio"]')) return;
    const items = focusables(pop);
    const at = items.indexOf(target);
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? items.length - 1
          : (at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
    items[next]?.focus();
    e.preventDefault();
  });

  // Keyboard focus leaving the popover (Tab past its end, Shift+Tab before it) closes it, as the pointer leaving does.
  pop.addEventListener('focusout', (e) => {
    const to = e.relatedTarget as Node | null;
    if (to && !pop.contains(to) && to !== trigger) hide();
  });

  // Fired in the same task as every open and close (ours, the platform's popovertarget, light dismiss, Esc), before it.
  pop.addEventListener('beforetoggle', (e) => {
    // A close the pointer scheduled belongs to the open it left: never to the next one.
    clearTimeout(closeTimer);
    if ((e as ToggleEvent).newState === 'open') {
      // Opened by anything else (another popovertarget button, a script): kept until dismissed, like a click.
      via = asked ?? 'pointer';
      asked = null;
      return;
    }
    focusInside = pop.contains(document.activeElement);
    via = null;
    asked = null;
  });
  // A task after the open or close. The engine folds a toggle still waiting into the next one, but an event is only
  // acted on if the popover is still in the state it reports.
  pop.addEventListener('toggle', (e) => {
    const open = isOpen();
    if (((e as ToggleEvent).newState === 'open') !== open) return;
    trigger.setAttribute('aria-expanded', String(open));
    if (open) {
      place(trigger, pop);
      // A keyboard user lands inside; a pointer user keeps focus where it was (no stray focus ring after a click).
      focusIn();
      return;
    }
    // Give focus back only when it would otherwise be lost, never away from what an outside click focused.
    const active = document.activeElement;
    if (focusInside && (!active || active === document.body || pop.contains(active)))
      trigger.focus({ preventScroll: true });
    focusInside = false;
  });

  // Opened before this script ran (the page still loading): the platform's popovertarget opened it, unseen by the
  // listeners above, and its toggle event may have gone by too. Focus left on the trigger with its focus ring showing
  // means a key opened it; focus moves in once the contents are in, if it is still on the trigger, the box or nowhere.
  if (isOpen()) {
    via = trigger === document.activeElement && trigger.matches(':focus-visible') ? 'key' : 'pointer';
    trigger.setAttribute('aria-expanded', 'true');
    place(trigger, pop);
    void loadParts().then(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active === trigger || active === pop) focusIn();
    });
  }
}

/** Opens `dialog` modally from `opener`; closing returns focus to the opener, or to the trigger of the popover it sat in. */
export function bindDialog(opener: HTMLElement, dialog: HTMLDialogElement): void {
  opener.addEventListener('click', () => {
    const host = opener.closest<HTMLElement>('[popover]');
    const back = host ? document.querySelector<HTMLElement>(`[aria-controls="${host.id}"]`) : opener;
    dialog.addEventListener('close', () => back?.focus({ preventScroll: true }), { once: true });
    dialog.showModal();
  });
  if (dialog.dataset.bound) return;
  dialog.dataset.bound = 'true';
  // A click on the backdrop lands on the dialog element itself (browsers without closedby="any").
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog.close();
  });
}

/** Wires every `[data-pop]` trigger and `[data-dialog]` opener under `root`. */
export function initPopovers(root: ParentNode = document): void {
  for (const trigger of root.querySelectorAll<HTMLElement>('[data-pop]:not([data-pop-bound])')) {
    const pop = document.getElementById(trigger.dataset.pop!);
    if (!pop) continue;
    trigger.dataset.popBound = '';
    bindPopover(trigger, pop);
  }
  for (const opener of root.querySelectorAll<HTMLElement>('[data-dialog]:not([data-dialog-bound])')) {
    const dialog = document.getElementById(opener.dataset.dialog!);
    if (!(dialog instanceof HTMLDialogElement)) continue;
    opener.dataset.dialogBound = '';
    bindDialog(opener, dialog);
  }
}
