/**
 * The header's and the sidebar's behaviour in one module (one small file in every page's first load): popovers and
 * dialogs, the theme and default-page switches, unread badges, install and the service worker. The shortcuts dialog
 * and the feedback form load their code on first use.
 */
import { showBadge, watchBadges } from '../badge.ts';
import { showFlash } from '../../stores/flash.ts';
import { loadMarks, MEMBER_ATTR, parsed, watchEarlyClicks } from '../marks.ts';
import { initPopovers } from '../popover.ts';
import { $sessionEnded, requireLogin } from '../../stores/auth.ts';
import { $theme, applyTheme, setTheme } from '../../stores/theme.ts';
import { getDefaultPage, setDefaultPage } from './default-page.ts';
import { install, registerServiceWorker, watchInstall } from './install.ts';
import { watchParts } from './parts.ts';
import { bindRadioGroup } from './radio-group.ts';
import { yieldToMain } from '../yield.ts';

let themeApplied = false;

function themeSwitch(): void {
  if (!themeApplied) {
    themeApplied = true;
    $theme.subscribe((theme) => applyTheme(theme));
  }
  const options = [...document.querySelectorAll<HTMLButtonElement>('[data-theme-value]:not([data-bound])')];
  if (!options.length) return;
  options.forEach((b) => (b.dataset.bound = ''));
  bindRadioGroup(options, (b) => setTheme(b.dataset.themeValue));
  $theme.subscribe((theme) =>
    options.forEach((b) => b.setAttribute('aria-checked', String(b.dataset.themeValue === theme))),
  );
}

function defaultPageSwitch(): void {
  const options = [...document.querySelectorAll<HTMLButtonElement>('[data-default-page]:not([data-bound])')];
  options.forEach((b) => (b.dataset.bound = ''));
  if (!options.length) return;
  const show = () =>
    options.forEach((b) => b.setAttribute('aria-checked', String(b.dataset.defaultPage === getDefaultPage())));
  show();
  bindRadioGroup(options, (b) => {
    setDefaultPage(b.dataset.defaultPage);
    show();
  });
}

function installButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-install]:not([data-bound])')) {
    button.dataset.bound = '';
    button.addEventListener('click', async () => {
      const status = button.closest('[popover]')?.querySelector<HTMLElement>('[data-install-status]');
      const outcome = await install();
      if (!status) return;
      if (outcome === 'manual') status.textContent = status.dataset.manual ?? '';
      else if (outcome === 'accepted' || outcome === 'installed') status.textContent = status.dataset.installed ?? '';
    });
  }
  // 收藏网站: Apple keyboards bookmark with ⌘D.
  if (/Mac|iPhone|iPad/.test(navigator.platform)) {
    for (const el of document.querySelectorAll<HTMLElement>('[data-bookmark-hint]'))
      el.textContent = el.textContent!.replace('Ctrl+D', '⌘+D');
  }
}

function lazyParts(): void {
  const settings = document.querySelector<HTMLElement>('[aria-controls="settings-pop"]');
  document.querySelector('[data-open-shortcuts]:not([data-bound])')?.addEventListener('click', async () => {
    document.getElementById('settings-pop')?.hidePopover();
    const { openShortcutsDialog } = await import('./shortcuts.ts');
    await openShortcutsDialog(settings);
  });
  document.querySelector<HTMLElement>('[data-open-shortcuts]')?.setAttribute('data-bound', '');
  const feedback = document.getElementById('feedback-dialog');
  if (feedback instanceof HTMLDialogElement && !feedback.hasAttribute('data-part')) {
    let wired: Promise<void> | undefined;
    // The form's code loads while the dialog opens; a submit before it arrives is not possible (autofocus, typing).
    for (const opener of document.querySelectorAll('[data-dialog="feedback-dialog"]')) {
      opener.addEventListener(
        'click',
        () => void (wired ??= import('./feedback.ts').then((m) => m.initFeedback(feedback))),
      );
    }
  }
}

/**
 * 私信 buttons (a profile) and a logged-in viewer's 通知 and 私信: live badges from the event stream once the page has
 * loaded, and each panel's island fetched as the pointer or focus reaches its entry, so it is ready when the popover
 * opens. Their code loads on demand: an anonymous page carries none of it.
 */
function inbox(): void {
  for (const button of document.querySelectorAll<HTMLElement>('[data-open-dm]')) {
    button.addEventListener('click', () => void import('../open-dm.ts').then((m) => m.openDm(button.dataset.openDm!)));
  }
  const hosts = document.querySelectorAll<HTMLElement>('[data-inbox-host]');
  // A page every viewer shares carries the panels for a member; a visitor's popovers show their login prompt.
  const member = document.documentElement.hasAttribute(MEMBER_ATTR) || document.body.hasAttribute('data-viewer');
  if (!hosts.length || !member) return;
  // The session ended: the popovers say what they say to anyone (log in to see 通知, 私信).
  const off = $sessionEnded.listen((ended) => {
    if (!ended) return;
    off();
    for (const host of hosts) {
      // A page every viewer shares has the visitor's prompt beside it, shown again once data-member goes.
      if (host.hasAttribute('data-member-only')) continue;
      const prompt = document.createElement('p');
      prompt.className = 'text-secondary';
      prompt.textContent = host.dataset.loggedOut ?? '';
      host.replaceWith(prompt);
    }
  });
  const start = () =>
    setTimeout(async () => {
      const m = await import('../../stores/inbox.ts');
      m.$noticeUnread.subscribe((n) => showBadge('notice', n));
      m.$dmUnread.subscribe((n) => showBadge('message', n));
      m.connectInbox();
    }, 0);
  if (document.readyState === 'complete') start();
  else addEventListener('load', start, { once: true });
  for (const host of hosts) {
    const name = host.dataset.inboxHost!;
    const pop = host.closest<HTMLElement>('[popover]');
    const trigger = pop && document.querySelector<HTMLElement>(`[aria-controls="${pop.id}"]`);
    const hydrate = () => dispatchEvent(new Event(`sy:hydrate-${name}`));
    for (const type of ['pointerenter', 'focus', 'touchstart'])
      trigger?.addEventListener(type, hydrate, { once: true, passive: true });
    pop?.addEventListener('toggle', hydrate, { once: true });
  }
}

/** Wires the controls inside the popovers and dialogs: those on the page now, and the chrome parts once they are in. */
function wireControls(): void {
  initPopovers(document);
  themeSwitch();
  defaultPageSwitch();
  installButtons();
  lazyParts();
}

/**
 * 举报 on a profile (ProfileHeader.astro): the report dialog, offering 同时拉黑. The profile is a page every viewer shares,
 * so it stays as it is; the block takes the member's works, comments and danmaku out of the blocker's feeds and lists.
 */
function reportButtons(): void {
  for (const button of document.querySelectorAll<HTMLElement>('[data-report-user]')) {
    button.addEventListener('click', async () => {
      if (!requireLogin()) return;
      const { report } = await import('../../islands/report.ts');
      const { reportUser = '', reportSec = '', reportName = '' } = button.dataset;
      await report({
        target: 'user',
        id: reportUser,
        person: { secUid: reportSec, nickname: reportName },
      });
    });
  }
}

/**
 * Wires everything of the chrome that is on this page. The script may run before the page has been read to its end (a
 * page that names its marks call loads it `async`, src/server/http/marks-hint.ts): early clicks and a member's marks
 * start at once, the rest once the page is complete.
 */
export function initChrome(): void {
  watchEarlyClicks();
  void loadMarks();
  void parsed().then(async () => {
    // In pieces, each its own turn: the popovers first, which a tap reaches soonest.
    wireControls();
    for (const piece of [
      () => watchParts(wireControls),
      () => {
        watchBadges();
        inbox();
      },
      () => {
        reportButtons();
        showFlash();
      },
      () => {
        watchInstall();
        registerServiceWorker();
      },
    ]) {
      await yieldToMain();
      piece();
    }
  });
}
