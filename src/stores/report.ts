/** 举报 from anywhere (a work, a comment, a user, a chat), with 同时拉黑 in the same call; the dialog's open state. */
import { atom } from 'nanostores';
import type { ReportReason, ReportTarget } from '../shared/messaging.ts';

/** What the open report dialog is about; null while closed. */
export interface ReportSubject {
  target: ReportTarget;
  /** The numeric id of the work, comment, user, message or conversation. */
  id: string;
  /** Who 同时拉黑 would block (the author, the writer, the user, the other side of the chat). */
  person: { secUid: string; nickname: string };
  /** Called once the report (and the block, if asked) is stored. */
  onDone?: (blocked: boolean) => void;
}

export const $report = atom<ReportSubject | null>(null);

/** Opens the dialog about `subject`. */
export function openReport(subject: ReportSubject): void {
  $report.set(subject);
}

export function closeReport(): void {
  $report.set(null);
}

/** Files the report; with `block`, the server blocks the person in the same call. Rejects with the server's message. */
export async function submitReport(subject: ReportSubject, reason: ReportReason, block: boolean): Promise<boolean> {
  const { apiPost } = await import('./api.ts');
  const answer = await apiPost<{ blocked: 0 | 1 }>(
    '/aweme/v1/web/report/',
    { object_type: subject.target, object_id: subject.id, reason, block: block ? 1 : 0 },
    { quiet: true },
  );
  return answer.blocked === 1;
}
