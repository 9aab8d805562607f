import type { Ref } from 'react';
import { t } from '../i18n/t.ts';
import { fieldClass } from './LoginForm.ts';

/** Why `email` cannot be sent yet ('' when it can): the check every login panel makes before using it. */
export function emailProblem(email: string): string {
  return email.trim() === '' ? t('login.error.emailEmpty') : '';
}

interface Props {
  id: string;
  value: string;
  onChange: (email: string) => void;
  autoComplete: 'username' | 'email';
  /** The error under the field. A panel that never shows one leaves it out, and no line is kept for it. */
  error?: string;
  /** Typing made the value sendable again: the panel clears its error. */
  onValid?: () => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** The 邮箱 field of the login dialog: label, input and, where the panel reports them, its errors. */
export function EmailField({ id, value, onChange, autoComplete, error, onValid, inputRef }: Props) {
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm text-secondary">
        {t('login.email')}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="email"
        autoComplete={autoComplete}
        placeholder={t('login.email.placeholder')}
        className={fieldClass}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(e) => {
          onChange(e.target.value);
          if (!emailProblem(e.target.value)) onValid?.();
        }}
      />
      {error !== undefined && (
        <p id={errorId} role="alert" className="min-h-5 text-sm text-accent-text">
          {error}
        </p>
      )}
    </div>
  );
}
