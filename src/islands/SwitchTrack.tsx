/**
 * The track and knob a switch button (role="switch") draws for `on`. They ease only once `eased` (the viewer has
 * flipped the switch): the state an island wakes with, such as a choice saved on this device where the server drew the
 * default, is drawn at once rather than slid to. The knob slides by transform, which the compositor moves.
 */
export function SwitchTrack({
  on,
  eased,
  off,
  knob = '',
}: {
  on: boolean;
  eased: boolean;
  off: string;
  knob?: string;
}) {
  const ease = eased ? 'motion-safe:transition' : '';
  return (
    <span className={`relative h-4 w-7 rounded-full ${ease} ${on ? 'bg-accent' : off}`} aria-hidden="true">
      <span
        className={`absolute left-0.5 top-0.5 h-3 w-3 rounded-full bg-white ${knob} ${ease} ${on ? 'translate-x-3' : ''}`}
      />
    </span>
  );
}
