import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../stores/toast.ts';
import { t } from '../i18n/t.ts';
import type { MessageKey } from '../i18n/zh-CN.ts';
import { REPORT_REASONS, type ReportReason, type ReportTarget } from '../shared/messaging.ts';
import { $report, closeReport, submitReport } from '../stores/report.ts';

const TITLES: Record<ReportTarget, MessageKey> = {
  video: 'report.titleVideo',
  comment: 'report.titleComment',
  user: 'report.titleUser',
  message: 'report.titleMessage',
  conversation: 'report.titleUser',
  live: 'report.titleLive',
};

/**
 * 举报: a modal dialog with the reasons and, in the same dialog, 同时拉黑 the person behind what is reported, so that
 * one step both tells the moderators and removes that person's works, comments and danmaku from the viewer's feeds.
 */
export function ReportDialog() {
  const subject = useStore($report);
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState<ReportReason>(REPORT_REASONS[0]);
  const [block, setBlock] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const hintId = useId();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (subject && !el.open) {
      setReason(REPORT_REASONS[0]);
      setBlock(false);
      setError(null);
      el.showModal();
    } else if (!subject && el.open) el.close();
  }, [subject]);

  const submit = async () => {
    if (!subject) return;
    setBusy(true);
    setError(null);
    try {
      const blocked = await submitReport(subject, reason, block);
      toast(blocked ? t('report.doneBlocked', { name: subject.person.nickname }) : t('report.done'), {
        type: 'success',
      });
      subject.onDone?.(blocked);
      closeReport();
    } catch (e) {
      setError((e as Error).message || t('toast.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={closeReport}
      className="m-auto w-[min(420px,calc(100vw-24px))] rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl backdrop:bg-black/50"
    >
      {subject && (
        <form
          className="flex flex-col gap-4 p-6"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <h2 id={titleId} className="text-base font-semibold">
            {t(TITLES[subject.target])}
          </h2>
          <fieldset>
            <legend className="mb-2 text-sm text-secondary">{t('report.reasons')}</legend>
            <div className="grid grid-cols-2 gap-2">
              {REPORT_REASONS.map((r) => (
                <label
                  key={r}
                  className="flex h-11 cursor-pointer items-center gap-2 rounded-lg border border-line px-3 text-sm has-[:checked]:border-accent"
                >
                  <input
                    type="radio"
                    name="report-reason"
                    value={r}
                    checked={reason === r}
                    onChange={() => setReason(r)}
                    className="accent-[var(--c-accent)]"
                  />
                  {t(`dm.reason.${r}`)}
                </label>
              ))}
            </div>
          </fieldset>
          {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- the label's text comes from an expression, which the rule cannot read */}
          <label className="flex cursor-pointer items-start gap-3 rounded-lg bg-raised p-3">
            <input
              type="checkbox"
              checked={block}
              onChange={(e) => setBlock(e.currentTarget.checked)}
              aria-describedby={hintId}
              className="mt-1 h-4 w-4 shrink-0 accent-[var(--c-accent)]"
            />
            <span className="flex flex-col gap-1">
              <span className="text-sm font-medium">{t('report.alsoBlock', { name: subject.person.nickname })}</span>
              <span id={hintId} className="text-xs text-secondary">
                {t('report.alsoBlockHint')}
              </span>
            </span>
          </label>
          {error && (
            <p role="alert" className="text-sm text-accent-text">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-ghost h-11 border border-line px-5" onClick={closeReport}>
              {t('report.cancel')}
            </button>
            <button type="submit" className="btn-accent h-11 px-6" disabled={busy} aria-busy={busy || undefined}>
              {busy ? t('report.submitting') : t('report.submit')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
