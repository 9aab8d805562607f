import { useId, useState, type FormEvent } from 'react';
import { apiPost } from '../stores/api.ts';
import { toast } from '../stores/toast.ts';
import { t } from '../i18n/t.ts';

const fieldClass =
  'h-10 w-full rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent aria-[invalid=true]:border-accent';

export interface PasswordFormProps {
  title: string;
  titleId: string;
  hasPassword: boolean;
  /** For the stand-in shown when this module cannot load. */
  failed: string;
  onCancel: () => void;
  onDone: () => void;
}

/** The 设置密码 / 修改密码 form: the current password only when one is set, a confirmation, server errors under it. */
export function PasswordForm({ title, titleId, hasPassword, onCancel, onDone }: PasswordFormProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [reveal, setReveal] = useState(false);
  const [error, setError] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [pending, setPending] = useState(false);
  const id = useId();
  const type = reveal ? 'text' : 'password';
  const ready = next !== '' && confirm !== '' && (!hasPassword || current !== '') && !pending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    if (next !== confirm) return setMismatch(true);
    setPending(true);
    setError('');
    try {
      await apiPost('/passport/password', { current: hasPassword ? current : undefined, next }, { quiet: true });
      toast(t(hasPassword ? 'profile.password.doneChange' : 'profile.password.doneSet'), { type: 'success' });
      onDone();
    } catch (failure) {
      setError((failure instanceof Error && failure.message) || t('toast.failed'));
      setPending(false);
    }
  };

  return (
    <form className="flex flex-col gap-4 p-6" onSubmit={submit} noValidate>
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      {hasPassword && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-current`} className="text-sm text-secondary">
            {t('profile.password.current')}
          </label>
          <input
            id={`${id}-current`}
            type={type}
            autoComplete="current-password"
            className={fieldClass}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </div>
      )}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-next`} className="text-sm text-secondary">
          {t('profile.password.next')}
        </label>
        <input
          id={`${id}-next`}
          type={type}
          autoComplete="new-password"
          aria-describedby={`${id}-rule`}
          className={fieldClass}
          value={next}
          onChange={(e) => {
            setNext(e.target.value);
            setMismatch(false);
          }}
        />
        <p id={`${id}-rule`} className="text-xs text-muted">
          {t('profile.password.rule')}
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-confirm`} className="text-sm text-secondary">
          {t('profile.password.confirm')}
        </label>
        <input
          id={`${id}-confirm`}
          type={type}
          autoComplete="new-password"
          aria-invalid={mismatch || undefined}
          aria-describedby={mismatch ? `${id}-mismatch` : undefined}
          className={fieldClass}
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setMismatch(false);
          }}
        />
        {mismatch && (
          <p id={`${id}-mismatch`} className="text-xs text-accent-text">
            {t('profile.password.mismatch')}
          </p>
        )}
      </div>
      <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-secondary">
        <input
          type="checkbox"
          className="accent-[var(--c-accent)]"
          checked={reveal}
          onChange={(e) => setReveal(e.target.checked)}
        />
        {t('profile.password.show')}
      </label>
      <p role="alert" className="min-h-5 text-sm text-accent-text">
        {error}
      </p>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-ghost h-9 px-5" onClick={onCancel}>
          {t('profile.password.cancel')}
        </button>
        <button type="submit" className="btn-accent h-9 px-6" disabled={!ready}>
          {pending ? t('profile.password.saving') : t('profile.password.save')}
        </button>
      </div>
    </form>
  );
}
