/**
 * A member's own state on a page every viewer shares: right after first paint, one call (GET /api/user/marks) asks for
 * the marks of the videos and people the page shows, then puts them in the marks store (the islands draw from it) and
 * onto the markup of the islands that have not hydrated yet, exactly as they would draw it, so nothing moves and the
 * hydration finds what it expects. A visitor (no saved login, no member hint cookie) makes no call. An answer without
 * a viewer means the session is over: the page turns to a visitor's, as when a session ends.
 */
import { hideOwnFollow } from '../stores/own-follow.ts';
import { showBadge } from './badge.ts';
import { followButtonClass, followPillClass } from '../shared/follow-look.ts';
import type { FollowStatus } from '../shared/api-shapes.ts';
import { savedToken } from '../stores/auth.ts';
import { recordIntent } from '../stores/early-clicks.ts';
import { markedFollow, setMarks, type MarksData, type PageMarks } from '../stores/marks.ts';
import { coversTargets, MARKS_QUERY_ATTR, marksQuery, targetsFrom, type MarkTargets } from '../shared/marks-query.ts';

/** The attribute the root carries while a saved login is taken for a member (set before first paint by theme.js). */
export const MEMBER_ATTR = 'data-member';
/** The attribute the root carries once the viewer's marks are on the page. */
export const MARKS_ATTR = 'data-marks';
/** The session cookie's readable companion (server/http/request-context.ts MEMBER_HINT_COOKIE). */
const MEMBER_HINT = /(^|;\s*)sy_member=1/;

/** The ids of the videos and the sec_uids of the people the page shows marks for. */
export function markTargets(root: ParentNode = document): MarkTargets {
  return targetsFrom({
    // The videos an island draws from its JSON block (the feed's first page, a player's video): the page names each once.
    blocks: [...root.querySelectorAll('script[type="application/json"][data-marks]')].map((b) => b.textContent ?? ''),
    marked: [...root.querySelectorAll<HTMLElement>('[data-mark]')].map((el) => el.dataset),
    series: root.querySelector<HTMLElement>('[data-marks-series]')?.dataset.marksSeries,
    // A profile page names its user: the member's visit goes to their 观看历史 → 用户.
    visit: root.querySelector<HTMLElement>('[data-marks-visit]')?.dataset.marksVisit,
  });
}

/** Whether `el` belongs to an island that has not hydrated (Astro drops `ssr` once it has): React draws the others. */
function unhydrated(el: Element): boolean {
  return el.closest('astro-island')?.hasAttribute('ssr') ?? false;
}

/** Shows a mark button of an island not yet hydrated as `on`, as the island would draw it. */
function press(el: HTMLElement, on: boolean): void {
  el.setAttribute('aria-pressed', String(on));
  if (el.dataset.tint) el.querySelector('svg')?.classList.toggle(el.dataset.tint, on);
}

/**
 * A click on ♥, 收藏 or 稍后再看 of an island not yet hydrated turns the button at once and records what it meant, the
 * state it showed turned (early-clicks.ts): the click is replayed after hydration, when the marks may say otherwise.
 * From then on the marks leave that button alone.
 */
export function watchEarlyClicks(root: Document = document): void {
  root.addEventListener(
    'click',
    (e) => {
      const el = (e.target as Element | null)?.closest?.<HTMLElement>('[data-mark]');
      const kind = el?.dataset.mark;
      if (!el || !el.dataset.video || !unhydrated(el)) return;
      if (kind !== 'like' && kind !== 'collect' && kind !== 'later') return;
      const on = el.getAttribute('aria-pressed') !== 'true';
      recordIntent(kind, el.dataset.video, on);
      el.dataset.intent = '';
      press(el, on);
    },
    { capture: true },
  );
}

/** Draws `marks` on one button the way its island would (VideoActions, FollowToggle, FollowBadge). */
function drawMark(el: HTMLElement, marks: PageMarks): void {
  const kind = el.dataset.mark;
  if (kind === 'like' || kind === 'collect' || kind === 'later') {
    // Clicked before the marks came: what the click meant stands.
    if (el.hasAttribute('data-intent')) return;
    const set = kind === 'like' ? marks.liked : kind === 'collect' ? marks.collected : marks.later;
    press(el, set.has(el.dataset.video ?? ''));
    return;
  }
  if (kind !== 'follow' || !el.dataset.user) return;
  const status: FollowStatus = markedFollow(marks, el.dataset.user, 0);
  const label = el.dataset.labels?.split('|')[status];
  const size = el.dataset.size;
  if (size === 'badge') {
    const pill = el.querySelector('span');
    if (pill) {
      pill.className = followPillClass(status);
      if (label) pill.textContent = label;
    }
  } else {
    el.className = followButtonClass(status, size === 'md' ? 'md' : 'sm');
    if (label) el.textContent = label;
  }
}

/**
 * Shows `marks` on the page: the islands that have not hydrated, the unread badges, the header's avatar. Without `follows`
 * the follow buttons are left for later (the page is still being read).
 */
export function drawMarks(marks: PageMarks, root: Document = document, follows = true): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-mark]'))
    if (unhydrated(el) && (follows || el.dataset.mark !== 'follow')) drawMark(el, marks);
  // The saved login named the viewer before first paint; the session's own answer has the last word.
  hideOwnFollow(marks.viewer.secUid);
  showBadge('notice', marks.unread.notice, root);
  showBadge('message', marks.unread.message, root);
  root.documentElement.setAttribute(MEMBER_ATTR, '');
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-account="member"] button')) {
    if (!unhydrated(button)) continue;
    const img = button.querySelector('img');
    if (img && marks.viewer.avatar && img.getAttribute('src') !== marks.viewer.avatar) img.src = marks.viewer.avatar;
    const label = button.getAttribute('aria-label');
    if (label?.includes('{nickname}'))
      button.setAttribute('aria-label', label.replace('{nickname}', marks.viewer.nickname));
  }
}

/**
 * The page as a visitor sees it: the session turned out to be over. A saved login is told so as any 401 tells it
 * (stores/api.ts): 登录状态已过期，请重新登录.
 */
async function sessionOver(root: Document, hadToken: boolean): Promise<void> {
  root.documentElement.removeAttribute(MEMBER_ATTR);
  root.cookie = 'sy_member=; Path=/; Max-Age=0';
  const { clearLocalSession } = await import('../stores/session.ts');
  clearLocalSession();
  if (!hadToken) return;
  const [{ t }, { toast }] = await Promise.all([import('../i18n/t.ts'), import('../stores/toast.ts')]);
  toast(t('toast.expired'), { type: 'error' });
}

let started = false;

/** Resolves once `root` has been read to its end (at once when it has). */
export function parsed(root: Document = document): Promise<void> {
  if (root.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => root.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

/** The marks call the page's inline script made before first paint (src/components/inline/theme.js), with its query. */
declare global {
  var syMarks: { q: string; answer: Promise<Response> } | undefined;
}

/** The marks of the call made with `query`, or undefined when it failed or was refused. */
async function fetchMarks(query: string, token: string | null, fetcher: typeof fetch): Promise<MarksData | undefined> {
  // The call already made for this query, taken once.
  const early = globalThis.syMarks?.q === query ? globalThis.syMarks.answer : undefined;
  globalThis.syMarks = undefined;
  try {
    const res = await (early ??
      fetcher(`/api/user/marks${query ? `?${query}` : ''}`, {
        // Without a saved token, the session cookie speaks for the browser.
        headers: token ? { token, accept: 'application/json' } : { accept: 'application/json' },
        credentials: 'same-origin',
      }));
    if (!res.ok) return undefined;
    return ((await res.json()) as { data: MarksData }).data;
  } catch {
    // Offline or refused: the page stays as shared, and the islands ask again when acted on.
    return undefined;
  }
}

/**
 * Asks for the marks of what the page shows, once per page, when this browser holds a saved login or the hint cookie.
 * A page that names its targets on its root (src/server/http/marks-hint.ts) is asked for at once, even while it is still
 * being read, and what has been read is drawn as soon as the answer comes; the rest when the page is complete. A page
 * that does not, or whose end shows a target the name left out, is asked for once it is complete.
 */
export async function loadMarks(root: Document = document, fetcher: typeof fetch = fetch): Promise<void> {
  const token = savedToken();
  if (started || (!token && !MEMBER_HINT.test(root.cookie))) return;
  started = true;
  const named = root.documentElement.getAttribute(MARKS_QUERY_ATTR);
  if (named === null) await parsed(root);
  let query = named ?? marksQuery(markTargets(root));
  let data = await fetchMarks(query, token, fetcher);
  let drawing: MutationObserver | undefined;
  if (data?.viewer && root.readyState === 'loading') {
    const early = setMarks(data);
    if (early) {
      drawMarks(early, root, false);
      // The ♥, 收藏 and 稍后再看 the page adds while it is still being read are drawn as they come, before they are ever
      // painted (again as their icon arrives); a follow button's label waits for the end, since the parser may still be
      // adding the text it would replace.
      drawing = new MutationObserver((records) => {
        const marked = new Set<HTMLElement>();
        for (const { addedNodes } of records) {
          for (const node of addedNodes) {
            const el = node instanceof Element ? node : node.parentElement;
            const within = el?.closest<HTMLElement>('[data-mark]');
            if (within) marked.add(within);
            if (node instanceof Element)
              for (const m of node.querySelectorAll<HTMLElement>('[data-mark]')) marked.add(m);
          }
        }
        for (const el of marked) if (el.dataset.mark !== 'follow' && unhydrated(el)) drawMark(el, early);
      });
      drawing.observe(root.documentElement, { childList: true, subtree: true });
    }
  }
  await parsed(root);
  drawing?.disconnect();
  const targets = markTargets(root);
  if (data?.viewer && !coversTargets(query, targets)) {
    query = marksQuery(targets);
    data = await fetchMarks(query, token, fetcher);
  }
  if (!data) return;
  const marks = setMarks(data);
  if (marks) {
    drawMarks(marks, root);
    // What the member muted leaves what the page rendered for everyone (the islands read the mutes from their store).
    void import('./mutes.ts').then(({ watchMutes }) => watchMutes(root));
  } else await sessionOver(root, !!token);
  // For whoever waits on them (a test, a script): the marks are on the page.
  root.documentElement.setAttribute(MARKS_ATTR, '');
}
