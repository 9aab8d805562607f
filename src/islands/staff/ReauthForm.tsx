/** 请验证身份: the password, or a code mailed to the account, makes the session fit for staff work for 15 minutes. */
import { useState, type FormEvent } from 'react';
import { apiPost, ApiFailure } from '../../stores/api.ts';
import { t } from '../../i18n/t.ts';

interface Props {
  email: string | null;
  /** Called once verified; without it the page reloads (a page refused for want of it then renders). */
  onDone?: () => void;
  /** Given in a dialog: a 取消 button calls it (a phone has no Escape key). */
  onCancel?: () => void;
}

export function ReauthForm({ email, onDone, onCancel }: Props) {
  const [mode, setMode] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!value) return;
    setBusy(true);
    setMessage(null);
    try {
      await apiPost('/admin/reauth', mode === 'password' ? { password: value } : { code: value }, { quiet: true });
      if (onDone) onDone();
      else location.reload();
    } catch (error) {
      setMessage(error instanceof ApiFailure ? error.message : t('toast.failed'));
    } finally {
      setBusy(false);
    }
  }

  async function sendCode() {
    setBusy(true);
    setMessage(null);
    try {
      await apiPost('/admin/reauth/code', {}, { quiet: true });
      setSent(true);
    } catch (error) {
      setMessage(error instanceof ApiFailure ? error.message : t('toast.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-label={t('staff.reauth.title')}>
      <p className="text-sm text-secondary">{t('staff.reauth.hint')}</p>
      <label className="flex flex-col gap-1 text-sm">
        <span>{mode === 'password' ? t('staff.reauth.password') : t('staff.reauth.code')}</span>
        <input
          className="focus-ring h-11 rounded-lg border border-line bg-raised px-3 text-primary"
          type={mode === 'password' ? 'password' : 'text'}
          inputMode={mode === 'code' ? 'numeric' : undefined}
          autoComplete={mode === 'password' ? 'current-password' : 'one-time-code'}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's one field
          autoFocus
        />
      </label>
      {mode === 'code' && (
        <div className="flex items-center gap-2 text-sm">
          <button
            type="button"
            className="btn-ghost h-11 border border-line"
            disabled={busy}
            onClick={() => void sendCode()}
          >
            {t('staff.reauth.sendCode')}
          </button>
          {sent && (
            <span role="status" className="text-secondary">
              {email ? t('staff.reauth.codeSent', { email }) : t('staff.reauth.codeSentInbox')}
            </span>
          )}
        </div>
      )}
      {message && (
        <p role="alert" className="text-sm text-accent-text">
          {message}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className="btn-accent h-11 px-6" disabled={busy || !value}>
          {t('staff.reauth.submit')}
        </button>
        <button
          type="button"
          className="btn-ghost h-11"
          onClick={() => {
            setMode(mode === 'password' ? 'code' : 'password');
            setValue('');
          }}
        >
          {mode === 'password' ? t('staff.reauth.byCode') : t('staff.reauth.byPassword')}
        </button>
        {onCancel && (
          <button type="button" className="btn-ghost ml-auto h-11 border border-line" onClick={onCancel}>
            {t('staff.reauth.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
