import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import type { StudioConfig, Visibility } from '../../shared/studio.ts';
import { FIELD_LABEL } from './classes.ts';

export interface Choices {
  channelId: number | null;
  visibility: Visibility;
  allowComments: boolean;
}

interface Props {
  value: Choices;
  config: StudioConfig;
  onChange: (change: Partial<Choices>) => void;
  /** Names the radio groups apart when two forms share a page. */
  name: string;
}

// Radios drawn as pills: the input stays in the page (keyboard, screen readers), the pill shows its state.
const PILL =
  'flex min-h-11 cursor-pointer items-center justify-center rounded-full border border-line px-4 text-sm text-secondary hover:text-primary md:min-h-9 peer-checked:(border-accent bg-[color-mix(in_srgb,var(--c-accent)_10%,transparent)] font-medium text-accent-text) peer-focus-visible:(outline-2 outline-solid outline-accent outline-offset-2)';

/** A work's channel, who may see it and whether it takes comments: the publish form and the edit dialog both ask. */
export function WorkChoices({ value, config, onChange, name }: Props) {
  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className={`${FIELD_LABEL} mb-2`}>{t('studio.form.channel')}</legend>
        <div className="flex flex-wrap gap-2">
          {config.channels.map((c) => (
            <label key={c.id}>
              <input
                type="radio"
                name={`${name}-channel`}
                value={c.id}
                checked={value.channelId === c.id}
                onChange={() => onChange({ channelId: c.id })}
                className="peer sr-only"
              />
              <span className={PILL}>{c.name}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className={`${FIELD_LABEL} mb-2`}>{t('studio.form.visibility')}</legend>
        <div className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:gap-6">
          {config.visibilities.map((v) => (
            <label key={v} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm md:min-h-9">
              <input
                type="radio"
                name={`${name}-visibility`}
                value={v}
                checked={value.visibility === v}
                onChange={() => onChange({ visibility: v })}
                className="h-4 w-4 accent-[var(--c-accent)]"
              />
              <span className="text-primary">{t(`studio.visibility.${v}` as MessageKey)}</span>
              <span className="text-xs text-secondary">{t(`studio.form.visibility.${v}` as MessageKey)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex min-h-11 items-center justify-between gap-4 md:min-h-9">
        <span className="flex flex-col">
          <label htmlFor={`${name}-comments`} className={`${FIELD_LABEL} cursor-pointer`}>
            {t('studio.form.comments')}
          </label>
          <span id={`${name}-comments-hint`} className="text-xs text-secondary">
            {t('studio.form.commentsHint')}
          </span>
        </span>
        <input
          id={`${name}-comments`}
          aria-describedby={`${name}-comments-hint`}
          type="checkbox"
          role="switch"
          checked={value.allowComments}
          onChange={(e) => onChange({ allowComments: e.target.checked })}
          className="studio-switch focus-ring shrink-0"
        />
      </div>
    </>
  );
}
