import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { riLockPasswordLine } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';

/** The entry's labels (passed by the server: the form brings the catalogue when it opens). */
export interface PasswordEntryText {
  set: string;
  change: string;
  loading: string;
  failed: string;
}

interface Props {
  /** Whether the account has a password already: 修改密码 asks for it, 设置密码 does not. */
  hasPassword: boolean;
  text: PasswordEntryText;
}

const loadForm = () => import('./PasswordForm.tsx');
// A chunk that fails to load (offline, a new deploy) leaves a message in the dialog instead of unmounting the entry.
const PasswordForm = lazy(() =>
  loadForm().then(
    (m) => ({ default: m.PasswordForm }),
    () => ({
      default: ({ failed }: { failed: string }) => (
        <p role="alert" className="px-6 py-10 text-center text-sm text-muted">
          {failed}
        </p>
      ),
    }),
  ),
);

/** The own profile's 设置密码 / 修改密码 entry and its dialog; the form's code loads on the first opening. */
export function PasswordDialog({ hasPassword: initial, text }: Props) {
  const [hasPassword, setHasPassword] = useState(initial);
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const title = hasPassword ? text.change : text.set;

  useEffect(() => {
    const el = dialog.current;
    if (open && el && !el.open) el.showModal();
  }, [open]);

  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        className="btn-ghost h-9 border border-line px-4 lt-tablet:h-11"
        onPointerEnter={() => void loadForm()}
        onClick={() => setOpen(true)}
      >
        <Icon svg={riLockPasswordLine} />
        {title}
      </button>
      <dialog
        ref={dialog}
        aria-label={title}
        className="m-auto backdrop:bg-black/50 w-[min(400px,calc(100vw-32px))] rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl"
        onClose={() => {
          setOpen(false);
          trigger.current?.focus();
        }}
      >
        {open && (
          <Suspense fallback={<p className="px-6 py-10 text-center text-sm text-muted">{text.loading}</p>}>
            <PasswordForm
              title={title}
              titleId={titleId}
              hasPassword={hasPassword}
              failed={text.failed}
              onCancel={() => dialog.current?.close()}
              onDone={() => {
                setHasPassword(true);
                dialog.current?.close();
              }}
            />
          </Suspense>
        )}
      </dialog>
    </>
  );
}
