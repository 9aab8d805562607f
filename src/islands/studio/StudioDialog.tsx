import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  open: boolean;
  /** Called when the dialog closes by Esc, a button or the form; the parent sets `open` false. */
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  /** alertdialog for a confirmation. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  children: ReactNode;
}

/**
 * A modal `<dialog>`: shown with showModal() (focus moves in, the page behind is inert, Esc closes) and, once closed,
 * focus goes back to what had it before, such as the row's 编辑 button.
 */
export function StudioDialog({
  open,
  onClose,
  labelledBy,
  describedBy,
  role = 'dialog',
  className = 'w-[min(640px,calc(100vw-24px))]',
  children,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const before = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      before.current = document.activeElement as HTMLElement | null;
      el.showModal();
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onClose={() => {
        onClose();
        before.current?.focus();
      }}
      className={`m-auto max-h-[calc(100dvh-24px)] overflow-y-auto rounded-2xl border-0 bg-surface p-0 text-primary shadow-2xl backdrop:bg-black/50 ${className}`}
    >
      {open && children}
    </dialog>
  );
}
