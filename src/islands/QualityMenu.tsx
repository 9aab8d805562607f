import type { Rendition } from '../shared/video-item.ts';
import { QUALITIES, setQuality, type Quality } from '../stores/quality.ts';
import { ChoiceMenu } from './ChoiceMenu.tsx';
import type { PlayerText } from './PlayerText.ts';

interface Props {
  renditions: Rendition[];
  /** The remembered choice. */
  quality: Quality;
  /** What plays now (the gear a remembered choice fell back to, when the work lacks it). */
  playing?: Rendition;
  text: Pick<PlayerText, 'quality' | 'qualityAuto' | 'gears'>;
}

/** The 清晰度 menu of the control bar: 智能 and the gears this work has. */
export function QualityMenu({ renditions, quality, playing, text }: Props) {
  const entries = QUALITIES.filter((q) => q === 'auto' || renditions.some((r) => r.gear === q));
  const checked: Quality = quality === 'auto' ? 'auto' : (playing?.gear ?? quality);
  const label = (q: Quality) => (q === 'auto' ? text.qualityAuto : text.gears[q]);
  return (
    <ChoiceMenu
      name={text.quality}
      current={label(checked)}
      entries={entries.map((q) => ({ value: q, label: label(q) }))}
      checked={checked}
      onPick={setQuality}
    />
  );
}
