import { useStore } from '@nanostores/react';
import { $note } from '../stores/player.ts';
import type { PlayerText } from './PlayerText.ts';

/** The note a change of 倍速 or 连播 leaves over the video for a moment, also read out by screen readers. */
export function PlayerNote({ text }: { text: Pick<PlayerText, 'speedNote' | 'autoNextOn' | 'autoNextOff'> }) {
  const note = useStore($note);
  const said = !note
    ? ''
    : note.kind === 'rate'
      ? text.speedNote.replace('{rate}', String(note.value))
      : note.value
        ? text.autoNextOn
        : text.autoNextOff;
  return (
    <div role="status" className="pointer-events-none absolute inset-x-0 top-1/3 z-30 flex justify-center">
      {said && (
        <span key={note!.at} className="player-note rounded-full bg-black/65 px-4 py-2 text-sm text-white">
          {said}
        </span>
      )}
    </div>
  );
}
