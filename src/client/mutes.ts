/**
 * Hides what a page every viewer shares rendered before the member's mutes arrived: a video card names its author by
 * its author link and a 热点 row by `data-mute` (a sec_uid), each shows its text (`.card-title`, `.hot-title`), and
 * the same rule the server applies to the member's own reads (shared/mutes.ts) decides. A mute or an undo made on the page shows at once; cards the islands add
 * later are judged as they arrive. A profile's own works are left alone (`data-mute-off`): it was opened on purpose.
 */
import { hashtagNames } from '../shared/hashtag-text.ts';
import { isMuted, type MuteSet } from '../shared/mutes.ts';
import { $mutes } from '../stores/mutes.ts';

/** The attribute a row without an author link carries: its author's sec_uid. */
export const MUTE_ATTR = 'data-mute';
/** What the rule judges: video cards (their author link names the author) and rows that name theirs. */
const JUDGED = `.video-card, [${MUTE_ATTR}]`;

/** The sec_uid of the card's author. */
function authorOf(el: HTMLElement): string | null {
  const named = el.getAttribute(MUTE_ATTR);
  if (named) return named;
  const href = el.querySelector('a.card-author')?.getAttribute('href') ?? '';
  return href.startsWith('/user/') ? decodeURIComponent(href.slice('/user/'.length)) : null;
}
/** Set on what a mute hid, so an undo shows only that again. */
const HIDDEN_ATTR = 'data-mute-hidden';

/** The box a card sits in (a grid's li), or the card itself. */
const boxOf = (el: HTMLElement): HTMLElement => el.closest<HTMLElement>('li') ?? el;

/** Hides the cards under `root` that `mutes` hides, and shows again those it no longer does. */
export function hideMuted(mutes: MuteSet | null, root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>(JUDGED)) {
    if (el.closest('[data-mute-off]')) continue;
    const text = el.querySelector('.card-title, .hot-title')?.textContent ?? '';
    const muted = !!mutes && isMuted(mutes, { author: authorOf(el), text, hashtags: hashtagNames(text) });
    const box = boxOf(el);
    if (muted && !box.hasAttribute(HIDDEN_ATTR)) {
      box.setAttribute(HIDDEN_ATTR, '');
      box.hidden = true;
    } else if (!muted && box.hasAttribute(HIDDEN_ATTR)) {
      box.removeAttribute(HIDDEN_ATTR);
      box.hidden = false;
    }
  }
}

let watching = false;

/** Keeps the page in step with the member's mutes from now on (once per page). */
export function watchMutes(root: Document = document): void {
  if (watching || typeof MutationObserver === 'undefined') return;
  watching = true;
  let queued = false;
  const run = () => {
    queued = false;
    hideMuted($mutes.get(), root);
  };
  $mutes.subscribe(run);
  new MutationObserver((records) => {
    const mutes = $mutes.get();
    if (queued || !mutes || !(mutes.keywords.length + mutes.authors.length + mutes.hashtags.length)) return;
    if (!records.some((r) => r.addedNodes.length)) return;
    queued = true;
    requestAnimationFrame(run);
  }).observe(root.body, { childList: true, subtree: true });
}
