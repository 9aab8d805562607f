import { useState, type FormEvent } from 'react';
import { errorOf, finishLogin } from './LoginForm.ts';

/** A login form's submit: once `ready`, one attempt at a time; the server's message on failure, the page reloaded on success. */
export function useLoginSubmit(ready: boolean, login: () => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError('');
    try {
      await login();
      finishLogin();
    } catch (err) {
      setError(errorOf(err));
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
