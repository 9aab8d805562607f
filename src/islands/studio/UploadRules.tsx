import { t } from '../../i18n/t.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { riFilmLine, riHdLine, riTimeLine, riUploadCloud2Line } from '../../shared/icons.ts';
import { GEARS, type StudioConfig } from '../../shared/studio.ts';
import { Icon } from '../Icon.tsx';
import { formatSpan } from './format.ts';

/** 上传要求: formats, size cap, durations and renditions as the server states them; a skeleton until they arrive. */
export function UploadRules({ config }: { config: StudioConfig | null }) {
  const rules = config && [
    { icon: riFilmLine, title: t('studio.upload.rule.format'), text: t('studio.upload.rule.formatText', { formats: config.videoExtensions.map((x) => x.toUpperCase()).join('、') }) },
    { icon: riUploadCloud2Line, title: t('studio.upload.rule.size'), text: t('studio.upload.rule.sizeText', { max: formatBytes(config.maxBytes) }) },
    {
      icon: riTimeLine,
      title: t('studio.upload.rule.duration'),
      text: t('studio.upload.rule.durationText', { min: formatSpan(config.minDurationSec), max: formatSpan(config.maxDurationSec) }),
    },
    { icon: riHdLine, title: t('studio.upload.rule.quality'), text: t('studio.upload.rule.qualityText', { gears: GEARS.map((g) => `${g}p`).join('、') }) },
  ];
  return (
    <section aria-labelledby="studio-rules-title">
      <h2 id="studio-rules-title" className="text-sm font-semibold">
        {t('studio.upload.rules')}
      </h2>
      <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4" aria-busy={!rules || undefined}>
        {rules
          ? rules.map((r) => (
              <li key={r.title} className="flex gap-3 rounded-xl bg-raised p-4">
                <Icon svg={r.icon} className="mt-0.5 shrink-0 text-xl text-accent" />
                <div className="min-w-0">
                  <p className="text-sm font-medium text-primary">{r.title}</p>
                  <p className="mt-1 text-xs leading-5 text-secondary">{r.text}</p>
                </div>
              </li>
            ))
          : [0, 1, 2, 3].map((i) => (
              <li key={i} className="h-[76px] animate-pulse rounded-xl bg-raised" />
            ))}
      </ul>
    </section>
  );
}
