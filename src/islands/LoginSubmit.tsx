import { t } from '../i18n/t.ts';

/** The foot of a login form: why the last attempt failed, and the 登录 button (disabled until `ready`, and while `busy`). */
export function LoginSubmit({ error, ready, busy }: { error: string; ready: boolean; busy: boolean }) {
  return (
    <>
      <p role="alert" className="min-h-5 text-sm text-accent-text">
        {error}
      </p>
      <button type="submit" className="btn-accent h-11 w-full text-base" disabled={!ready || busy}>
        {busy ? t('login.submitting') : t('login.submit')}
      </button>
    </>
  );
}
