/** What a moderator may do with a reported target: dismiss, remove or restore, mute for 1, 7 or 30 days, ban; each reversible. */
import { useState } from 'react';
import { apiPost } from '../../stores/api.ts';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import { MODERATION_REASON_MAX, MUTE_DAYS, REMOVABLE_TARGETS, type ModerationTarget } from '../../shared/staff.ts';
import { ReauthDialog } from './ReauthDialog.tsx';
import { useStaffCall } from './useStaffCall.ts';

interface Props {
  type: ModerationTarget;
  id: number;
  /** Whom a mute or ban is for (null: a conversation has no one author). */
  authorId: number | null;
  open: number;
  removed: boolean;
  muted: boolean;
  banned: boolean;
}

type Pending = { action: 'remove' } | { action: 'mute'; days: number } | { action: 'ban' };

export function ModerationActions({ type, id, authorId, open, removed, muted, banned }: Props) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState('');
  const call = useStaffCall();
  const removable = (REMOVABLE_TARGETS as readonly string[]).includes(type);
  const done = () => {
    toast(t('staff.action.done'));
    location.reload();
  };
  const post = (path: string, form: Record<string, string | number>) =>
    call.run(() => apiPost(path, form, { quiet: true }), done);

  function confirmPending() {
    if (!pending) return;
    if (pending.action === 'remove') void post('/admin/moderation/remove', { type, id, reason });
    else if (pending.action === 'mute')
      void post('/admin/moderation/mute', { user_id: authorId!, days: pending.days, reason });
    else void post('/admin/moderation/ban', { user_id: authorId!, reason });
  }

  const button = 'btn-ghost h-11 border border-line';
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('staff.reports.title')}>
        {open > 0 && (
          <button
            type="button"
            className={button}
            disabled={call.busy}
            onClick={() => void post('/admin/reports/dismiss', { type, id })}
          >
            {t('staff.action.dismiss')}
          </button>
        )}
        {removable &&
          (removed ? (
            <button
              type="button"
              className={button}
              disabled={call.busy}
              onClick={() => void post('/admin/moderation/restore', { type, id })}
            >
              {t('staff.action.restore')}
            </button>
          ) : (
            <button
              type="button"
              className="btn-accent h-11"
              disabled={call.busy}
              onClick={() => setPending({ action: 'remove' })}
            >
              {t('staff.action.remove')}
            </button>
          ))}
        {authorId !== null &&
          (muted ? (
            <button
              type="button"
              className={button}
              disabled={call.busy}
              onClick={() => void post('/admin/moderation/lift', { user_id: authorId, kind: 'mute' })}
            >
              {t('staff.action.unmute')}
            </button>
          ) : (
            MUTE_DAYS.map((days) => (
              <button
                key={days}
                type="button"
                className={button}
                disabled={call.busy}
                onClick={() => setPending({ action: 'mute', days })}
              >
                {t('staff.action.muteDays', { days })}
              </button>
            ))
          ))}
        {authorId !== null &&
          (banned ? (
            <button
              type="button"
              className={button}
              disabled={call.busy}
              onClick={() => void post('/admin/moderation/lift', { user_id: authorId, kind: 'ban' })}
            >
              {t('staff.action.unban')}
            </button>
          ) : (
            <button type="button" className={button} disabled={call.busy} onClick={() => setPending({ action: 'ban' })}>
              {t('staff.action.ban')}
            </button>
          ))}
      </div>
      {pending && (
        <form
          className="flex flex-col gap-2 rounded-xl border border-line p-3"
          onSubmit={(e) => {
            e.preventDefault();
            confirmPending();
          }}
        >
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">
              {pending.action === 'remove'
                ? t('staff.action.remove')
                : pending.action === 'mute'
                  ? t('staff.action.muteDays', { days: pending.days })
                  : t('staff.action.ban')}
              {' · '}
              {t('staff.action.reason')}
            </span>
            <input
              className="focus-ring h-11 rounded-lg border border-line bg-raised px-3 text-primary"
              value={reason}
              maxLength={MODERATION_REASON_MAX}
              placeholder={t('staff.action.reasonPlaceholder')}
              onChange={(e) => setReason(e.target.value)}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opened for this one field
              autoFocus
            />
          </label>
          <div className="flex gap-2">
            <button type="submit" className="btn-accent h-11 px-6" disabled={call.busy || !reason.trim()}>
              {t('staff.action.confirm')}
            </button>
            <button type="button" className="btn-ghost h-11" onClick={() => setPending(null)}>
              {t('staff.action.cancel')}
            </button>
          </div>
        </form>
      )}
      {call.error && (
        <p role="alert" className="text-sm text-accent-text">
          {call.error}
        </p>
      )}
      {call.reauth && (
        <ReauthDialog
          onClose={call.clearReauth}
          onDone={() => {
            const resume = call.reauth;
            call.clearReauth();
            resume?.();
          }}
        />
      )}
    </div>
  );
}
