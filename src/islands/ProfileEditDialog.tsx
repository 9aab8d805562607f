import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { riEditLine } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';
import type { ProfileFields } from './ProfileEditForm.tsx';

/** The entry's labels (passed by the server: the form brings the catalogue when it opens). */
export interface ProfileEditEntryText {
  open: string;
  loading: string;
  failed: string;
}

interface Props {
  /** The profile as the page shows it: what the form starts from. */
  profile: ProfileFields;
  text: ProfileEditEntryText;
}

const loadForm = () => import('./ProfileEditForm.tsx');
// A chunk that fails to load (offline, a new deploy) leaves a message in the dialog instead of unmounting the entry.
const ProfileEditForm = lazy(() =>
  loadForm().then(
    (m) => ({ default: m.ProfileEditForm }),
    () => ({
      default: ({ failed }: { failed: string }) => (
        <p role="alert" className="px-6 py-10 text-center text-sm text-muted">
          {failed}
        </p>
      ),
    }),
  ),
);

/** The own profile's 编辑资料 button and its dialog; the form's code and the catalogue load on the first opening. */
export function ProfileEditDialog({ profile, text }: Props) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

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
        onFocus={() => void loadForm()}
        onClick={() => setOpen(true)}
      >
        <Icon svg={riEditLine} />
        {text.open}
      </button>
      <dialog
        ref={dialog}
        aria-label={text.open}
        className="m-auto max-h-[calc(100dvh-32px)] w-[min(520px,calc(100vw-32px))] overflow-y-auto rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl backdrop:bg-black/50"
        onClose={() => {
          setOpen(false);
          trigger.current?.focus();
        }}
      >
        {open && (
          <Suspense fallback={<p className="px-6 py-10 text-center text-sm text-muted">{text.loading}</p>}>
            <ProfileEditForm
              title={text.open}
              profile={profile}
              failed={text.failed}
              onCancel={() => dialog.current?.close()}
            />
          </Suspense>
        )}
      </dialog>
    </>
  );
}
