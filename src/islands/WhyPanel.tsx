import { useEffect, useId, useRef } from 'react';
import { t } from '../i18n/t.ts';
import type { LessKind } from '../shared/feed-reason.ts';
import { riCloseLine, riEmotionUnhappyLine, riEyeOffLine, riUser3Line } from '../shared/icons.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { Icon } from './Icon.tsx';

interface Props {
  item: VideoItem;
  /** 不感兴趣, as the player's texts say it. */
  notInterestedLabel: string;
  /** Where focus goes back when the panel closes: the 更多 button. */
  opener: HTMLElement | null;
  onClose: () => void;
  onNotInterested?: () => void;
  onLess: (kind: LessKind) => void;
}

const ROW =
  'focus-ring flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left text-sm text-primary hover:bg-hover';

/**
 * 为什么推荐这个视频 (a chunk of its own, loaded on the first click, so its strings come from the catalogue here rather
 * than with every page's player texts, which each page's HTML carries): the item's reason as the recommend feed gave it, with 不感兴趣 and 减少此类 (its channel or its
 * author) beside it. A non-modal dialog: focus moves in, Esc or a click outside closes it and focus returns to 更多.
 */
export function WhyPanel({ item, notInterestedLabel, opener, onClose, onNotInterested, onLess }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const reason = item.reason;

  useEffect(() => {
    root.current?.querySelector<HTMLElement>('button')?.focus();
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node) && !opener?.contains(e.target as Node)) onClose();
    };
    // Esc closes this panel only, not the feed's modes behind it (the feed's shortcuts listen on the document).
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      onClose();
      opener?.focus();
    };
    const box = root.current;
    document.addEventListener('pointerdown', away);
    box?.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('pointerdown', away);
      box?.removeEventListener('keydown', esc);
    };
  }, [onClose, opener]);

  const close = () => {
    onClose();
    opener?.focus();
  };
  const then = (act: () => void) => () => {
    act();
    close();
  };

  return (
    <div
      ref={root}
      role="dialog"
      aria-labelledby={titleId}
      data-testid="why-panel"
      className="absolute bottom-0 right-full z-30 mr-2 w-64 rounded-xl border border-line bg-surface p-3 text-primary shadow-xl"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id={titleId} className="text-sm font-semibold">
          {t('why.title')}
        </h2>
        <button
          type="button"
          aria-label={t('why.close')}
          onClick={close}
          className="focus-ring tap-target rounded p-1 hover:bg-hover"
        >
          <Icon svg={riCloseLine} className="text-lg" />
        </button>
      </div>
      <p className="mb-2 mt-1 text-sm">
        {reason ? (
          <>
            <span className="text-secondary">{t('why.lead')}：</span>
            <strong className="font-semibold text-accent-text" data-testid="why-reason" data-code={reason.code}>
              {reason.text}
            </strong>
          </>
        ) : (
          <span className="text-secondary">{t('why.none')}</span>
        )}
      </p>
      <ul className="flex flex-col gap-0.5 border-t border-line pt-2">
        {onNotInterested && (
          <li>
            <button type="button" className={ROW} onClick={then(onNotInterested)}>
              <Icon svg={riEmotionUnhappyLine} className="text-lg text-secondary" />
              {notInterestedLabel}
            </button>
          </li>
        )}
        {reason?.channelName && (
          <li>
            <button type="button" className={ROW} onClick={then(() => onLess('channel'))}>
              <Icon svg={riEyeOffLine} className="text-lg text-secondary" />
              {t('why.lessChannel', { channel: reason.channelName })}
            </button>
          </li>
        )}
        <li>
          <button type="button" className={ROW} onClick={then(() => onLess('author'))}>
            <Icon svg={riUser3Line} className="text-lg text-secondary" />
            {t('why.lessAuthor')}
          </button>
        </li>
      </ul>
    </div>
  );
}
