import { useEffect, useState } from 'react';
import { t } from '../i18n/t.ts';
import { riEyeLine, riEyeOffLine } from '../shared/icons.ts';
import { loginWithPassword } from '../stores/user.ts';
import { EmailField, emailProblem } from './EmailField.tsx';
import { Icon } from './Icon.tsx';
import { fieldClass } from './LoginForm.ts';
import { LoginSubmit } from './LoginSubmit.tsx';
import { useLoginSubmit } from './useLoginSubmit.ts';

interface Props {
  email: string;
  setEmail: (email: string) => void;
  /** The demo account's password, pre-filled while the field is empty. */
  demoPassword: string;
  idPrefix: string;
}

/** The 密码登录 tab: email and password, the password masked until 显示密码. */
export function LoginPasswordPanel({ email, setEmail, demoPassword, idPrefix }: Props) {
  const [password, setPassword] = useState('');
  const [reveal, setReveal] = useState(false);

  useEffect(() => {
    if (demoPassword) setPassword((typed) => typed || demoPassword);
  }, [demoPassword]);

  const ready = !emailProblem(email) && password !== '';
  const { busy, error, submit } = useLoginSubmit(ready, () => loginWithPassword(email, password));

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
      <EmailField id={`${idPrefix}-email`} autoComplete="username" value={email} onChange={setEmail} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-password`} className="text-sm text-secondary">
          {t('login.password')}
        </label>
        <div className="relative">
          <input
            id={`${idPrefix}-password`}
            type={reveal ? 'text' : 'password'}
            autoComplete="current-password"
            placeholder={t('login.password.placeholder')}
            className={`${fieldClass} pr-11`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button
            type="button"
            className="btn-ghost absolute right-1 top-1 h-9 w-9 p-0"
            aria-label={t('login.password.reveal')}
            aria-pressed={reveal}
            onClick={() => setReveal((r) => !r)}
          >
            <Icon svg={reveal ? riEyeLine : riEyeOffLine} className="text-lg" />
          </button>
        </div>
      </div>
      <LoginSubmit error={error} ready={ready} busy={busy} />
    </form>
  );
}
