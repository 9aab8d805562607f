import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { toast } from '../stores/toast.ts';
import { t } from '../i18n/t.ts';
import { REPORT_REASONS, type ReportReason } from '../shared/messaging.ts';
import { $chat, clearChat, reportChat, setBlocked, setMute, setPinned } from '../stores/messages.ts';

type View = 'menu' | 'confirm' | 'report';

/**
 * 更多: the chat's actions (消息免打扰, 置顶聊天, 删除聊天, 举报, 拉黑), drawn inside the pane rather than as a
 * dialog of the top layer, which would light-dismiss the header popover the panel lives in.
 */
export function ChatMenu({ onClose }: { onClose: () => void }) {
  const chat = useStore($chat);
  const [view, setView] = useState<View>('menu');
  const [reason, setReason] = useState<ReportReason>(REPORT_REASONS[0]);
  const [alsoBlock, setAlsoBlock] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const state = chat.state!;
  const exists = state.conversation_id !== '0';
  const iBlocked = (state.block_status & 1) === 1;

  useEffect(() => {
    box.current?.querySelector<HTMLElement>('button:not([disabled]), input')?.focus();
  }, [view]);

  const done = (ok: boolean, message?: string) => {
    if (ok && message) toast(message);
    onClose();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      // Esc closes this menu, not the whole popover.
      e.stopPropagation();
      e.preventDefault();
      onClose();
      document.querySelector<HTMLElement>('[data-chat] [aria-haspopup="menu"]')?.focus();
    }
  };
  const item =
    'focus-ring flex h-10 w-full items-center rounded-md px-3 text-left text-sm hover:bg-hover disabled:(opacity-50 cursor-not-allowed)';

  return (
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- Escape and arrow keys from the menu's buttons bubble up to this container
    <div
      ref={box}
      className="absolute right-1 top-11 z-20 w-44 rounded-lg border border-line bg-raised p-1 shadow-xl"
      onKeyDown={onKey}
    >
      {view === 'menu' && (
        <div role="menu" aria-label={t('dm.more')}>
          <button
            type="button"
            role="menuitem"
            className={item}
            disabled={!exists}
            onClick={() => void setMute(state.mute === 0).then(() => onClose())}
          >
            {state.mute ? t('dm.unmute') : t('dm.mute')}
          </button>
          <button
            type="button"
            role="menuitem"
            className={item}
            disabled={!exists}
            onClick={() => void setPinned(state.stick_on_top === 0).then(() => onClose())}
          >
            {state.stick_on_top ? t('dm.unpin') : t('dm.pin')}
          </button>
          <button type="button" role="menuitem" className={item} disabled={!exists} onClick={() => setView('confirm')}>
            {t('dm.clear')}
          </button>
          <button type="button" role="menuitem" className={item} onClick={() => setView('report')}>
            {t('dm.report')}
          </button>
          <button
            type="button"
            role="menuitem"
            className={`${item} text-accent-text`}
            onClick={() =>
              void setBlocked(!iBlocked).then((ok) => done(ok, iBlocked ? t('dm.unblocked') : t('dm.blocked')))
            }
          >
            {iBlocked ? t('dm.unblock') : t('dm.block')}
          </button>
        </div>
      )}
      {view === 'confirm' && (
        <div role="alertdialog" aria-modal="false" aria-labelledby="dm-clear-title" className="p-2">
          <p id="dm-clear-title" className="mb-3 text-sm">
            {t('dm.clearConfirm')}
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-ghost !h-7 text-xs" onClick={onClose}>
              {t('dm.cancel')}
            </button>
            <button
              type="button"
              className="btn-accent !h-7 !px-3 text-xs"
              onClick={() => void clearChat().then(() => onClose())}
            >
              {t('dm.clearOk')}
            </button>
          </div>
        </div>
      )}
      {view === 'report' && (
        <form
          className="p-2"
          aria-labelledby="dm-report-title"
          onSubmit={(e) => {
            e.preventDefault();
            void reportChat(reason, alsoBlock && !iBlocked).then((ok) =>
              done(
                ok,
                alsoBlock && !iBlocked ? t('report.doneBlocked', { name: state.peer.nickname }) : t('dm.reported'),
              ),
            );
          }}
        >
          <fieldset>
            <legend id="dm-report-title" className="mb-2 text-sm font-medium">
              {t('dm.reportTitle')}
            </legend>
            {REPORT_REASONS.map((r) => (
              <label key={r} className="flex h-8 cursor-pointer items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="dm-report-reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => setReason(r)}
                  className="accent-[var(--c-accent)]"
                />
                {t(`dm.reason.${r}`)}
              </label>
            ))}
          </fieldset>
          {!iBlocked && (
            <label className="mt-1 flex cursor-pointer items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={alsoBlock}
                onChange={(e) => setAlsoBlock(e.currentTarget.checked)}
                className="mt-1 accent-[var(--c-accent)]"
              />
              {t('report.alsoBlock', { name: state.peer.nickname })}
            </label>
          )}
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className="btn-ghost !h-7 text-xs" onClick={onClose}>
              {t('dm.cancel')}
            </button>
            <button type="submit" className="btn-accent !h-7 !px-3 text-xs">
              {t('dm.reportSubmit')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
