/**
 * The staff console's contract with the browser: roles, what each may do, the moderation choices and the limits both
 * sides check. Browser-safe: no server imports.
 */
import { REPORT_TARGETS } from './messaging.ts';

/** Staff roles. An admin may do what editors and moderators do, and grants and revokes roles. */
export const STAFF_ROLES = ['editor', 'moderator', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Whether `held` includes what `needed` asks for (an admin covers every role). */
export function hasRole(held: readonly StaffRole[], needed: StaffRole | 'any'): boolean {
  if (held.length === 0) return false;
  if (needed === 'any' || held.includes('admin')) return true;
  return held.includes(needed);
}

/** How long a password or e-mail code entered for the console keeps a session fit for staff work. */
export const STAFF_REAUTH_MS = 15 * 60_000;

/** Mutes a moderator may give, in days. */
export const MUTE_DAYS = [1, 7, 30] as const;
export type MuteDays = (typeof MUTE_DAYS)[number];

/** What a report or a moderation action may be about: whatever a member may report, so the queue sees every report. */
export const MODERATION_TARGETS = REPORT_TARGETS;
export type ModerationTarget = (typeof MODERATION_TARGETS)[number];

/** Targets whose content a moderator may remove (and restore). */
export const REMOVABLE_TARGETS = ['video', 'comment', 'message', 'live'] as const;
export type RemovableTarget = (typeof REMOVABLE_TARGETS)[number];

/** Where a report came from: a member's 举报, or a watched word found in new text. */
export const REPORT_SOURCES = ['member', 'watched_word'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

/** A report's state in the queue. */
export const REPORT_STATES = ['open', 'dismissed', 'actioned'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** Longest reason a moderator writes for a removal or a sanction (shown to the member). */
export const MODERATION_REASON_MAX = 200;
/** Longest watched word, in characters. */
export const WATCHED_WORD_MAX = 40;

/** The editors' collections, in the console's order. */
export const CONTENT_COLLECTIONS = [
  'channels',
  'faq',
  'pages',
  'headerLinks',
  'footerLinks',
  'downloads',
  'topupPackages',
] as const;
export type ContentCollection = (typeof CONTENT_COLLECTIONS)[number];

/** Collections whose entries editors may add and delete; the others have a fixed set of entries the site links to. */
export const OPEN_COLLECTIONS: readonly ContentCollection[] = ['faq', 'headerLinks', 'footerLinks', 'topupPackages'];

/** Collections whose entries carry a Markdown body. */
export const MARKDOWN_COLLECTIONS: readonly ContentCollection[] = ['faq', 'pages'];

/** Longest Markdown body an editor may save, in characters. */
export const CONTENT_BODY_MAX = 50_000;

/** An entry id: lower-case letters, digits and hyphens (it is a file name in src/content too). */
export const CONTENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Largest banner image an editor may upload. */
export const BANNER_MAX_BYTES = 5 * 1024 * 1024;
