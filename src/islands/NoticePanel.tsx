import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatNoticeDate, t } from '../i18n/t.ts';
import { NOTICE_GROUP_NAMES, type Notice, type NoticeGroup } from '../shared/messaging.ts';
import { riArrowDownSLine, riCheckboxCircleFill } from '../shared/icons.ts';
import { $noticeGroup, $notices, $noticesState, chooseGroup, loadNotices, openNotices } from '../stores/notices.ts';
import { Icon } from './Icon.tsx';
import { useNearEnd } from './useNearEnd.ts';

interface Props {
  /** id of the header popover this panel sits in: it reloads and marks read each time that opens. */
  popoverId: string;
}

/** The 通知 panel (互动消息): a server-side filter, an infinite list of what others did to the viewer's works. */
export function NoticePanel({ popoverId }: Props) {
  const items = useStore($notices);
  const state = useStore($noticesState);
  const group = useStore($noticeGroup);
  const end = useRef<HTMLLIElement>(null);

  useEffect(() => {
    const pop = document.getElementById(popoverId);
    const onToggle = (e: Event) => {
      if ((e as ToggleEvent).newState === 'open') void openNotices();
    };
    pop?.addEventListener('toggle', onToggle);
    // Hydrated by the popover's first opening: that opening counts.
    if (pop?.matches(':popover-open')) void openNotices();
    return () => pop?.removeEventListener('toggle', onToggle);
  }, [popoverId]);

  const scroller = useRef<HTMLUListElement>(null);
  useNearEnd(end, scroller, () => void loadNotices(), [items.length, state.hasMore, group]);

  return (
    <section className="flex w-[360px] max-w-[calc(100vw-24px)] flex-col" aria-label={t('notice.title')}>
      <header className="flex items-center justify-between px-4 pt-4 pb-2">
        <h2 className="text-base font-semibold">{t('notice.title')}</h2>
        <GroupFilter value={group} onChange={chooseGroup} />
      </header>
      <ul ref={scroller} className="max-h-[420px] overflow-y-auto px-2 pb-2" aria-busy={state.loading}>
        {items.map((n) => (
          <NoticeItem key={n.nid} n={n} />
        ))}
        {state.loading && items.length === 0 && <Skeleton />}
        <li ref={end} className="h-px" aria-hidden="true" />
      </ul>
      {state.loaded && !state.loading && items.length === 0 && (
        <p className="px-4 pb-8 pt-4 text-center text-sm text-secondary">{t('notice.empty')}</p>
      )}
      {state.error && <p className="px-4 pb-3 text-center text-sm text-secondary">{t('toast.failed')}</p>}
      {state.loaded && !state.hasMore && items.length > 0 && (
        <p className="pb-3 text-center text-xs text-secondary">{t('notice.end')}</p>
      )}
    </section>
  );
}

/** The filter dropdown: a button and a listbox that closes once an option is chosen. */
function GroupFilter({ value, onChange }: { value: NoticeGroup; onChange: (g: NoticeGroup) => void }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const options = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    options.current[NOTICE_GROUP_NAMES.indexOf(value)]?.focus();
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- focus goes to the chosen option when the list opens, not on each choice
  }, [open]);

  const pick = (g: NoticeGroup) => {
    setOpen(false);
    if (g !== value) onChange(g);
    root.current?.querySelector<HTMLButtonElement>('button')?.focus();
  };

  const onKey = (e: KeyboardEvent, at: number) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step) {
      e.preventDefault();
      e.stopPropagation();
      options.current[(at + step + NOTICE_GROUP_NAMES.length) % NOTICE_GROUP_NAMES.length]?.focus();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      setOpen(false);
      root.current?.querySelector<HTMLButtonElement>('button')?.focus();
    }
  };

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        className="btn-ghost !h-7 !px-2 text-xs"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`${t('notice.filter')}：${t(`notice.group.${value}`)}`}
        onClick={() => setOpen(!open)}
      >
        {t(`notice.group.${value}`)}
        <Icon svg={riArrowDownSLine} className={open ? 'rotate-180 transition-transform' : 'transition-transform'} />
      </button>
      {open && (
        <div
          id={listId}
          role="listbox"
          aria-label={t('notice.filter')}
          className="absolute right-0 top-8 z-10 w-32 rounded-lg border border-line bg-raised p-1 shadow-lg"
        >
          {NOTICE_GROUP_NAMES.map((g, i) => (
            <button
              key={g}
              ref={(el) => {
                options.current[i] = el;
              }}
              type="button"
              role="option"
              aria-selected={g === value}
              className="focus-ring flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm hover:bg-hover aria-selected:text-accent-text"
              onClick={() => pick(g)}
              onKeyDown={(e) => onKey(e, i)}
            >
              {t(`notice.group.${g}`)}
              {g === value && <Icon svg={riCheckboxCircleFill} className="text-xs" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function NoticeItem({ n }: { n: Notice }) {
  const profile = `/user/${encodeURIComponent(n.actor.sec_uid)}`;
  return (
    <li className="flex gap-3 rounded-lg px-2 py-3 hover:bg-hover" data-notice={n.type}>
      <a href={profile} className="focus-ring shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
        <img
          src={n.actor.avatar_thumb.url_list[0]}
          alt=""
          width="40"
          height="40"
          className="h-10 w-10 rounded-full object-cover"
          loading="lazy"
        />
      </a>
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-center gap-x-1">
          <a href={profile} className="focus-ring truncate font-medium hover:underline">
            {n.actor.nickname}
          </a>
          {n.actor.follow_status !== 0 && (
            <span className="rounded bg-hover px-1 text-[11px] leading-4 text-secondary">{t('notice.followed')}</span>
          )}
        </p>
        <p className="mt-0.5 text-secondary">
          {t(`notice.action.${n.type}`)}
          {n.is_read === 0 && (
            <span className="ml-1 inline-block h-1.5 w-1.5 rounded-full bg-accent align-middle" aria-hidden="true" />
          )}
        </p>
        {n.content && n.room_id ? (
          <a
            href={`/live/${n.room_id}`}
            className="focus-ring mt-1 line-clamp-2 break-words text-primary hover:text-accent-text"
          >
            {n.content}
          </a>
        ) : (
          n.content && <p className="mt-1 line-clamp-2 break-words text-primary">{n.content}</p>
        )}
        {n.download_url && (
          <a
            href={n.download_url}
            download
            className="btn-accent mt-2 inline-flex h-8 items-center px-3 text-xs lt-tablet:h-11"
          >
            {t('notice.exportDownload')}
          </a>
        )}
        <p className="mt-1 text-xs text-secondary">
          <time dateTime={new Date(n.create_time).toISOString()}>{formatNoticeDate(new Date(n.create_time))}</time>
        </p>
      </div>
      {n.aweme && (
        <a
          href={`/video/${n.aweme.aweme_id}`}
          className="focus-ring shrink-0 self-start rounded"
          aria-label={t('notice.work')}
        >
          <img
            src={n.aweme.cover.url_list[0]}
            alt=""
            width="48"
            height="64"
            className="h-16 w-12 rounded object-cover"
            loading="lazy"
          />
        </a>
      )}
    </li>
  );
}

function Skeleton() {
  return (
    <>
      {[0, 1, 2, 3].map((i) => (
        <li key={i} className="flex animate-pulse gap-3 px-2 py-3" aria-hidden="true">
          <span className="h-10 w-10 shrink-0 rounded-full bg-hover" />
          <span className="flex-1 space-y-2">
            <span className="block h-3 w-1/2 rounded bg-hover" />
            <span className="block h-3 w-3/4 rounded bg-hover" />
          </span>
          <span className="h-16 w-12 rounded bg-hover" />
        </li>
      ))}
    </>
  );
}
