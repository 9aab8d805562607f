import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import { riFolderVideoLine } from '../../shared/icons.ts';
import type { StudioWork, StudioWorkPage } from '../../shared/studio.ts';
import { $studioConfig, loadStudioConfig } from '../../stores/studio-config.ts';
import { $pendingUploads, discardPendingUpload, loadPendingUploads } from '../../stores/studio-uploads.ts';
import { $works, $worksState, deleteWork, loadWorks, seedWorks, watchProcessing } from '../../stores/studio-works.ts';
import { Icon } from '../Icon.tsx';
import { ListEnd } from '../ListEnd.tsx';
import { useNearEnd } from '../useNearEnd.ts';
import type { ListPhase } from '../../stores/paged-list.ts';
import { CARD, TAP } from './classes.ts';
import { StatusTag } from './StatusTag.tsx';
import { StudioDialog } from './StudioDialog.tsx';
import { WorkEditDialog } from './WorkEditDialog.tsx';
import { WorkRow } from './WorkRow.tsx';

interface Props {
  /** The first page, rendered by the server. */
  initial: StudioWorkPage;
  /** A work just published from 发布视频 (the page says it is on its way). */
  publishedId: number | null;
}

/** 视频管理: my works, newest first, page by page; unfinished uploads on top; edit and delete in dialogs. */
export function WorksManager({ initial, publishedId }: Props) {
  const state = useStore($worksState);
  const stored = useStore($works);
  const config = useStore($studioConfig);
  const pending = useStore($pendingUploads);
  const [editing, setEditing] = useState<StudioWork | null>(null);
  const [removing, setRemoving] = useState<StudioWork | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const editTitle = useId();
  const deleteTitle = useId();
  const deleteText = useId();
  // Until the store takes the server's page (after hydration), render that page: the markup matches.
  const works = state.loaded ? stored : initial.items;
  const phase: ListPhase = state.loading
    ? 'loading'
    : state.error
      ? 'error'
      : (state.loaded ? state.hasMore : initial.hasMore)
        ? 'idle'
        : 'done';

  useEffect(() => {
    seedWorks(initial);
    void loadStudioConfig();
    loadPendingUploads().catch(() => {});
    return watchProcessing();
  }, [initial]);

  useNearEnd(sentinel, { current: null }, () => void loadWorks(), [works.length, phase]);

  const confirmDelete = async () => {
    if (!removing) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteWork(removing.id);
      setRemoving(null);
      toast(t('studio.manage.deleted'), { type: 'success' });
      heading.current?.focus();
    } catch (e) {
      setDeleteError((e as Error).message);
    } finally {
      setDeleting(false);
    }
  };

  const empty = works.length === 0 && (pending?.length ?? 0) === 0;

  return (
    <div className={CARD}>
      <h1 ref={heading} tabIndex={-1} className="text-xl font-bold outline-none">
        {t('post.manage')}
      </h1>
      {publishedId !== null && (
        <p
          role="status"
          className="mt-4 rounded-lg bg-[color-mix(in_srgb,var(--c-accent)_10%,transparent)] px-4 py-2.5 text-sm text-primary"
        >
          {t('studio.manage.published')}
        </p>
      )}
      {empty ? (
        <div className="flex flex-col items-center gap-4 py-20 text-center text-secondary">
          <Icon svg={riFolderVideoLine} className="text-5xl" />
          <p>{t('studio.manage.empty')}</p>
          <a href="/post" className={`btn-accent ${TAP} px-6`}>
            {t('studio.manage.emptyAction')}
          </a>
        </div>
      ) : (
        <ul aria-label={t('studio.manage.list')} className="mt-2">
          {pending?.map((p) => (
            <li
              key={p.storageKey}
              className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2 border-b border-line py-4 sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:gap-x-4"
            >
              <span className="row-span-2 flex aspect-[3/4] w-20 items-center justify-center rounded-lg bg-raised text-muted sm:row-span-1 sm:w-24">
                <Icon svg={riFolderVideoLine} className="text-2xl" />
              </span>
              <div className="flex min-w-0 flex-col gap-1.5">
                <h2 className="truncate text-sm font-medium text-primary">{p.fileName}</h2>
                {p.reason === null ? (
                  <>
                    <p className="flex flex-wrap items-center gap-2 text-xs text-secondary">
                      <StatusTag status="uploading" />
                      {p.received !== null &&
                        p.size > 0 &&
                        t('studio.pending.progress', { percent: Math.floor((p.received / p.size) * 100) })}
                    </p>
                    <p className="text-xs text-secondary">{t('studio.manage.uploadingHint')}</p>
                  </>
                ) : (
                  <p className="text-xs text-accent-text">{p.reason}</p>
                )}
              </div>
              {p.reason === null ? (
                <a href="/post" className={`btn-ghost ${TAP} w-fit border border-line sm:self-center`}>
                  {t('studio.upload.resume')}
                </a>
              ) : (
                <button
                  type="button"
                  className={`btn-ghost ${TAP} w-fit border border-line sm:self-center`}
                  aria-label={t('studio.pending.dismissLabel', { name: p.fileName })}
                  onClick={() => void discardPendingUpload(p.storageKey)}
                >
                  {t('studio.pending.dismiss')}
                </button>
              )}
            </li>
          ))}
          {works.map((w) => (
            <WorkRow key={w.id} work={w} onEdit={() => setEditing(w)} onDelete={() => setRemoving(w)} />
          ))}
        </ul>
      )}
      {!empty && <ListEnd phase={phase} sentinel={sentinel} onMore={() => void loadWorks()} tone="secondary" />}

      <StudioDialog open={editing !== null && config !== null} onClose={() => setEditing(null)} labelledBy={editTitle}>
        {editing && config && (
          <WorkEditDialog work={editing} config={config} titleId={editTitle} onDone={() => setEditing(null)} />
        )}
      </StudioDialog>

      <StudioDialog
        open={removing !== null}
        onClose={() => {
          setRemoving(null);
          setDeleteError(null);
        }}
        labelledBy={deleteTitle}
        describedBy={deleteText}
        role="alertdialog"
        className="w-[min(400px,calc(100vw-24px))]"
      >
        <div className="flex flex-col gap-3 p-6">
          <h2 id={deleteTitle} className="text-base font-semibold">
            {t('studio.manage.deleteTitle')}
          </h2>
          <p id={deleteText} className="text-sm text-secondary">
            {t('studio.manage.deleteText')}
          </p>
          {deleteError && (
            <p role="alert" className="text-sm text-accent-text">
              {deleteError}
            </p>
          )}
          <div className="mt-3 flex justify-end gap-2">
            {/* Focus starts on 取消: Enter right after opening must not delete. */}
            <button
              type="button"
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus
              className={`btn-ghost ${TAP} border border-line px-5`}
              onClick={() => setRemoving(null)}
            >
              {t('studio.manage.cancel')}
            </button>
            <button
              type="button"
              className={`btn-accent ${TAP} px-5`}
              disabled={deleting}
              aria-busy={deleting || undefined}
              onClick={() => void confirmDelete()}
            >
              {deleting ? t('studio.manage.deleting') : t('studio.manage.deleteConfirm')}
            </button>
          </div>
        </div>
      </StudioDialog>
    </div>
  );
}
