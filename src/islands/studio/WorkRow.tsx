import { formatCount, formatDuration, t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import {
  riDeleteBinLine,
  riEyeLine,
  riFilmLine,
  riLineChartLine,
  riLockLine,
  riUserHeartLine,
} from '../../shared/icons.ts';
import type { StudioWork } from '../../shared/studio.ts';
import { Icon } from '../Icon.tsx';
import { TAP } from './classes.ts';
import { formatStamp } from './format.ts';
import { StatusTag } from './StatusTag.tsx';

interface Props {
  work: StudioWork;
  onEdit: () => void;
  onDelete: () => void;
}

/** One work in 视频管理: cover, title, date and state (with why it was refused), its numbers, and 数据 / 编辑 / 删除. */
export function WorkRow({ work, onEdit, onDelete }: Props) {
  const published = work.status === 'published';
  const cover = (
    <span className="relative block aspect-[3/4] w-20 overflow-hidden rounded-lg bg-raised sm:w-24">
      {work.cover ? (
        <img src={work.cover} alt="" loading="lazy" className="h-full w-full object-cover" />
      ) : (
        <span className="flex h-full w-full flex-col items-center justify-center gap-1 text-center text-[11px] text-secondary">
          <Icon svg={riFilmLine} className="text-xl" />
          {t('studio.manage.noCover')}
        </span>
      )}
      {work.durationMs > 0 && (
        <span className="absolute bottom-1 right-1 rounded bg-black/60 px-1 text-[11px] tabular-nums text-white">
          {formatDuration(work.durationMs)}
        </span>
      )}
    </span>
  );
  const stats: [MessageKey, number][] = [
    ['studio.manage.plays', work.playCount],
    ['studio.manage.likes', work.diggCount],
    ['studio.manage.comments', work.commentCount],
  ];

  return (
    // A phone puts the actions under the text; wider screens give them a column of their own.
    <li
      className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2 border-b border-line py-4 last:border-b-0 sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:gap-x-4"
      data-work-id={work.id}
    >
      {published ? (
        <a
          href={`/video/${work.id}`}
          className="focus-ring row-span-2 rounded-lg sm:row-span-1"
          tabIndex={-1}
          aria-hidden="true"
        >
          {cover}
        </a>
      ) : (
        <span className="row-span-2 sm:row-span-1">{cover}</span>
      )}
      <div className="flex min-w-0 flex-col gap-1.5">
        <h2 className="line-clamp-2 break-words text-sm font-medium leading-6 text-primary">
          {published ? (
            <a href={`/video/${work.id}`} className="focus-ring rounded hover:text-accent-text">
              {work.title}
            </a>
          ) : (
            work.title
          )}
        </h2>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-secondary">
          <StatusTag status={work.status} />
          {work.visibility !== 'public' && (
            <span className="inline-flex items-center gap-0.5">
              <Icon svg={work.visibility === 'private' ? riLockLine : riUserHeartLine} />
              {t(`studio.visibility.${work.visibility}` as MessageKey)}
            </span>
          )}
          <time dateTime={new Date(work.createTime).toISOString()}>{formatStamp(work.createTime)}</time>
        </p>
        {work.status === 'rejected' && work.reason && <p className="text-xs text-accent-text">{work.reason}</p>}
        {work.status === 'processing' && <p className="text-xs text-secondary">{t('studio.manage.processingHint')}</p>}
        <dl className="mt-auto flex flex-wrap gap-x-5 gap-y-1 pt-1 text-xs text-secondary">
          {stats.map(([key, n]) => (
            <div key={key} className="flex gap-1">
              <dt>{t(key)}</dt>
              <dd className="font-medium tabular-nums text-primary">{formatCount(n)}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="flex flex-wrap items-center gap-1 sm:flex-nowrap sm:self-center">
        {published && (
          <a href={`/video/${work.id}`} className={`btn-ghost ${TAP} hidden lg:inline-flex`}>
            <Icon svg={riEyeLine} />
            {t('studio.manage.view')}
          </a>
        )}
        {published && (
          <a
            href={`/post/data?workId=${work.id}`}
            className={`btn-ghost ${TAP}`}
            aria-label={`${t('studio.manage.data')} ${work.title}`}
          >
            <Icon svg={riLineChartLine} />
            {t('studio.manage.data')}
          </a>
        )}
        <button
          type="button"
          className={`btn-ghost ${TAP} border border-line`}
          onClick={onEdit}
          aria-label={`${t('studio.manage.edit')} ${work.title}`}
        >
          {t('studio.manage.edit')}
        </button>
        <button
          type="button"
          className={`btn-ghost ${TAP}`}
          onClick={onDelete}
          aria-label={`${t('studio.manage.delete')} ${work.title}`}
        >
          <Icon svg={riDeleteBinLine} />
          <span className="hidden sm:inline">{t('studio.manage.delete')}</span>
        </button>
      </div>
    </li>
  );
}
