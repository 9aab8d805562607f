/**
 * 私信 buttons outside the panel (a profile, the share panel): they open the header's 私信 popover on one user. The
 * panel's island may not exist yet, so the sec_uid also waits on the popover until the island takes it.
 */
import { hasSession, openLogin } from '../stores/auth.ts';

/** Window event the 私信 panel listens to: `new CustomEvent(OPEN_DM_EVENT, { detail: { secUid } })`. */
export const OPEN_DM_EVENT = 'sy:open-dm';
/** Window event that hydrates the panel's island (`client:interact="message"`). */
export const HYDRATE_DM_EVENT = 'sy:hydrate-message';
export const DM_POPOVER_ID = 'pop-message';

export interface OpenDmDetail {
  secUid: string;
  /** Text to start the composer with. */
  draft?: string;
}

/** Opens the 私信 panel on `secUid` (with `draft` in its composer); anonymous viewers get the login dialog instead. */
export function openDm(secUid: string, draft = ''): void {
  const pop = document.getElementById(DM_POPOVER_ID);
  if (!pop || !hasSession() || !pop.querySelector('[data-dm-host]')) return openLogin();
  pop.dataset.dmPending = secUid;
  pop.dataset.dmDraft = draft;
  if (!pop.matches(':popover-open')) {
    try {
      pop.showPopover();
    } catch {
      // Already open in another way, or the trigger is gone (a narrow screen): the event still reaches the panel.
    }
  }
  dispatchEvent(new Event(HYDRATE_DM_EVENT));
  dispatchEvent(new CustomEvent<OpenDmDetail>(OPEN_DM_EVENT, { detail: { secUid, draft } }));
}
