/** Keeps the rule of src/components/inline/own-follow.js in step with a login or logout made on the page. */
import { SEC_UID } from '../shared/user-id.ts';

const RULE_ID = 'sy-own-follow';

/** Hides every follow button marked for `secUid` (the viewer), or none once nobody is logged in. */
export function hideOwnFollow(secUid: string | null | undefined): void {
  if (typeof document === 'undefined') return;
  let rule = document.getElementById(RULE_ID);
  if (!secUid || !SEC_UID.test(secUid)) return void rule?.remove();
  if (!rule) {
    rule = document.createElement('style');
    rule.id = RULE_ID;
    document.head.append(rule);
  }
  rule.textContent = `[data-follow-for="${secUid}"]{visibility:hidden!important}`;
}
