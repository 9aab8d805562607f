/**
 * What /post and /post/manage do before their island loads (React is not part of their first load): a file chosen in
 * the drop zone's input or dropped anywhere on the page is handed to the island, a drag lights the zone up, and the
 * island wakes at once when there is something to show without a click (an unfinished upload, a work processing).
 */
import { browserStorage } from '../stores/persist.ts';
import { hasResumableUploads, pickFile, STUDIO_WAKE_EVENT } from '../stores/studio-pick.ts';

const ZONE = '[data-studio-zone]';
const INPUT = '[data-studio-input]';

const zone = () => document.querySelector<HTMLElement>(ZONE);
const light = (on: boolean) => zone()?.toggleAttribute('data-over', on);

/** Starts watching the page; an element marked `data-studio-wake` (a work is processing) wakes the island at once. */
export function watchStudioPage(): void {
  // Delegated: the island re-renders the zone (更换视频 brings a new input).
  document.addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement;
    if (!input.matches?.(INPUT)) return;
    pickFile(input.files?.[0]);
    // The same file may be chosen again after a refusal or a cancel.
    input.value = '';
  });
  addEventListener('dragenter', (e) => {
    if (e.dataTransfer?.types.includes('Files')) light(true);
    dispatchEvent(new Event(STUDIO_WAKE_EVENT));
  });
  // Without these a file dropped on the page would replace it.
  addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = zone() ? 'copy' : 'none';
  });
  addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) light(false);
  });
  addEventListener('drop', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    light(false);
    // Only while the zone is shown: a drop on the publish form does not replace the video.
    if (zone()) pickFile(e.dataTransfer.files[0]);
  });
  if (document.querySelector('[data-studio-wake]') || hasResumableUploads(browserStorage('local')))
    dispatchEvent(new Event(STUDIO_WAKE_EVENT));
}
