/** Staff calls from the console's islands: failures shown inline, and a stale authentication answered with the re-auth dialog, then the call again. */
import { useCallback, useState } from 'react';
import { ApiFailure } from '../../stores/api.ts';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';

/** The message the door answers when the session's authentication is older than 15 minutes. */
const REAUTH = t('staff.error.reauth');

export interface StaffCall {
  busy: boolean;
  error: string | null;
  /** Set while the re-auth dialog should show; `resume` runs the refused call again. */
  reauth: (() => void) | null;
  run: <T>(call: () => Promise<T>, done?: (value: T) => void) => Promise<void>;
  clearReauth: () => void;
}

/** One staff call at a time, with its error and the re-authentication it may need. */
export function useStaffCall(): StaffCall {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reauth, setReauth] = useState<(() => void) | null>(null);
  const run = useCallback(async <T>(call: () => Promise<T>, done?: (value: T) => void) => {
    setBusy(true);
    setError(null);
    try {
      const value = await call();
      done?.(value);
    } catch (e) {
      const failure = e instanceof ApiFailure ? e : null;
      if (failure?.status === 403 && failure.message === REAUTH) {
        setReauth(() => () => void run(call, done));
      } else {
        const message = failure?.message ?? t('toast.failed');
        setError(message);
        toast(message, { type: 'error' });
      }
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, reauth, run, clearReauth: () => setReauth(null) };
}
