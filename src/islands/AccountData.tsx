import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../stores/toast.ts';
import { t } from '../i18n/t.ts';
import type { AccountState } from '../shared/account.ts';
import { formatBytes } from '../shared/format-bytes.ts';
import { $dataExport, requestAccountDeletion, sendDeleteCode, startExport, watchExport } from '../stores/account.ts';
import { leaveAfterDeletion } from '../stores/user.ts';

const BUTTON = 'btn-ghost shrink-0 border border-line px-4 h-9 lt-tablet:h-11';
const FIELD =
  'h-11 w-full rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent';

const dateTime = (ms: number) =>
  new Date(ms).toLocaleString('zh-CN', { month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** 下载我的数据: ask for a ZIP, see it being built, download it while it is valid. */
function ExportRow({ initial }: { initial: AccountState['export'] }) {
  const live = useStore($dataExport);
  const exported = live === undefined ? initial : live;
  const [busy, setBusy] = useState(false);
  useEffect(() => watchExport(), []);
  const start = async () => {
    setBusy(true);
    try {
      await startExport();
      toast(t('account.exportRequested'), { type: 'success' });
    } catch (e) {
      toast((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const status =
    exported?.status === 'pending'
      ? t('account.exportPending')
      : exported?.status === 'ready' && exported.expireTime
        ? t('account.exportReady', {
            size: formatBytes(exported.sizeBytes ?? 0),
            expires: dateTime(exported.expireTime),
          })
        : exported?.status === 'failed'
          ? t('account.exportFailed')
          : null;
  return (
    <div className="flex flex-col gap-3 py-3">
      <div className="flex items-start justify-between gap-4 lt-tablet:flex-col">
        <div className="flex flex-col gap-1">
          <span>{t('account.export')}</span>
          <span className="text-xs text-secondary">{t('account.exportHint')}</span>
        </div>
        <div className="flex shrink-0 gap-2">
          {exported?.status === 'ready' && exported.url && (
            <a href={exported.url} className="btn-accent inline-flex h-9 items-center px-4 lt-tablet:h-11" download>
              {t('account.exportDownload')}
            </a>
          )}
          <button
            type="button"
            className={BUTTON}
            disabled={busy || exported?.status === 'pending'}
            aria-busy={busy || undefined}
            onClick={() => void start()}
          >
            {t('account.exportStart')}
          </button>
        </div>
      </div>
      {status && (
        <p role="status" className="text-sm text-secondary">
          {status}
        </p>
      )}
    </div>
  );
}

/** 注销账号: a dialog that asks for the password or a mailed code before the cooling-off starts. */
function DeleteRow({ state }: { state: AccountState }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const hintId = useId();

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await requestAccountDeletion(password ? { password } : { code });
      leaveAfterDeletion(t('account.deleteRequested'));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  const send = async () => {
    setError(null);
    try {
      setSentTo(await sendDeleteCode());
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <div className="flex items-start justify-between gap-4 py-3 lt-tablet:flex-col">
      <div className="flex flex-col gap-1">
        <span>{t('account.delete')}</span>
        <span className="text-xs text-secondary">{t('account.deleteHint')}</span>
      </div>
      <button
        type="button"
        className={`${BUTTON} text-accent-text`}
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {t('account.deleteStart')}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-describedby={hintId}
        className="m-auto w-[min(440px,calc(100vw-24px))] rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl backdrop:bg-black/50"
      >
        <form
          className="flex flex-col gap-4 p-6"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
        >
          <h2 id={titleId} className="text-base font-semibold">
            {t('account.deleteTitle')}
          </h2>
          <p id={hintId} className="text-sm text-secondary">
            {t('account.deleteHint')}
          </p>
          {state.hasPassword && (
            <label className="flex flex-col gap-1.5 text-sm">
              {t('account.deleteVerifyPassword')}
              <input
                type="password"
                autoComplete="current-password"
                className={FIELD}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                placeholder={t('account.deletePassword')}
              />
            </label>
          )}
          {state.email && (
            <div className="flex flex-col gap-1.5 text-sm">
              <label htmlFor={`${titleId}-code`}>
                {state.hasPassword ? t('account.deleteVerifyCode') : t('account.deleteCode')}
              </label>
              <div className="flex gap-2">
                <input
                  id={`${titleId}-code`}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  className={FIELD}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  placeholder={t('account.deleteCode')}
                />
                <button type="button" className={`${BUTTON} !h-11`} onClick={() => void send()}>
                  {t('login.code.send')}
                </button>
              </div>
              {sentTo && <p className="text-xs text-secondary">{t('account.deleteCodeSent', { email: sentTo })}</p>}
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-accent-text">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" className={`${BUTTON} !h-11`} onClick={() => dialog.current?.close()}>
              {t('account.deleteCancel')}
            </button>
            <button
              type="submit"
              className="btn-accent h-11 px-5"
              disabled={busy || (!password && !code)}
              aria-busy={busy || undefined}
            >
              {t('account.deleteConfirm')}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}

/** 账号与数据 on the settings page: the member's data export and 注销账号. */
export function AccountData({ initial }: { initial: AccountState }) {
  useEffect(() => {
    if ($dataExport.get() === undefined) $dataExport.set(initial.export);
  }, [initial]);
  return (
    <div className="mt-2 divide-y divide-line">
      <ExportRow initial={initial.export} />
      <DeleteRow state={initial} />
    </div>
  );
}
