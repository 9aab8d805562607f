import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { t } from '../i18n/t.ts';
import { $codeCountdown } from '../stores/auth.ts';
import { loginWithCode, sendLoginCode } from '../stores/user.ts';
import { EmailField, emailProblem } from './EmailField.tsx';
import { errorOf, fieldClass } from './LoginForm.ts';
import { LoginSubmit } from './LoginSubmit.tsx';
import { useLoginSubmit } from './useLoginSubmit.ts';

interface Props {
  email: string;
  setEmail: (email: string) => void;
  idPrefix: string;
}

/** The 验证码登录 tab: 获取验证码 mails a 6-digit code (then counts down 60 s), the code logs in. */
export function LoginCodePanel({ email, setEmail, idPrefix }: Props) {
  const countdown = useStore($codeCountdown);
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [emailError, setEmailError] = useState('');
  const [notice, setNotice] = useState('');
  const emailInput = useRef<HTMLInputElement>(null);

  const requestCode = async () => {
    setNotice('');
    const problem = emailProblem(email);
    if (problem) {
      setEmailError(problem);
      emailInput.current?.focus();
      return;
    }
    setEmailError('');
    setSending(true);
    try {
      await sendLoginCode(email);
      setNotice(t('login.code.sent'));
    } catch (err) {
      setEmailError(errorOf(err));
    } finally {
      setSending(false);
    }
  };

  const ready = !emailProblem(email) && code !== '';
  const { busy, error, submit } = useLoginSubmit(ready, () => loginWithCode(email, code));

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
      <EmailField
        id={`${idPrefix}-email`}
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={emailError}
        onValid={() => setEmailError('')}
        inputRef={emailInput}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${idPrefix}-code`} className="text-sm text-secondary">
          {t('login.code')}
        </label>
        <div className="flex gap-2">
          <input
            id={`${idPrefix}-code`}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            placeholder={t('login.code.placeholder')}
            className={fieldClass}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          />
          <button
            type="button"
            className="btn-ghost h-11 shrink-0 whitespace-nowrap border border-line px-3"
            disabled={countdown > 0 || sending}
            onClick={requestCode}
          >
            {countdown > 0 ? t('login.code.resend', { n: countdown }) : t('login.code.send')}
          </button>
        </div>
        <p className="min-h-5 text-sm text-secondary" aria-live="polite">
          {notice}
        </p>
      </div>
      <LoginSubmit error={error} ready={ready} busy={busy} />
    </form>
  );
}
