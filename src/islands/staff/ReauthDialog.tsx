/** The re-auth form in a modal dialog, opened when a staff call is refused for an authentication older than 15 minutes. */
import { useEffect, useRef } from 'react';
import { t } from '../../i18n/t.ts';
import { ReauthForm } from './ReauthForm.tsx';

export function ReauthDialog({ onDone, onClose }: { onDone: () => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="staff-reauth-title"
      className="m-auto w-[min(420px,calc(100vw-32px))] rounded-2xl border-0 bg-surface p-6 text-primary shadow-2xl backdrop:bg-black/50"
    >
      <h2 id="staff-reauth-title" className="mb-3 text-lg font-bold">
        {t('staff.reauth.title')}
      </h2>
      <ReauthForm
        email={null}
        onCancel={() => ref.current?.close()}
        onDone={() => {
          ref.current?.close();
          onDone();
        }}
      />
    </dialog>
  );
}
