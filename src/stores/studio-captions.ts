/** The captions of the work being edited in the studio: read, upload a file, edit one cue, remove. */
import { map } from 'nanostores';
import { CAPTION_API, type CaptionTrack } from '../shared/captions.ts';
import { studioGet, studioPost } from './studio-api.ts';

export interface CaptionsState {
  /** The track, null when the work has none, undefined until read. */
  track: CaptionTrack | null | undefined;
  busy: boolean;
  /** The server's refusal of the last change (naming the line of a file), shown under the controls. */
  error: string | null;
}

/** One entry per work id. */
export const $captions = map<Record<string, CaptionsState>>({});

const IDLE: CaptionsState = { track: undefined, busy: false, error: null };
const patch = (workId: number, change: Partial<CaptionsState>) =>
  $captions.setKey(String(workId), { ...IDLE, ...$captions.get()[String(workId)], ...change });

/** Reads the work's captions. */
export async function loadCaptions(workId: number): Promise<void> {
  patch(workId, { busy: true, error: null });
  try {
    patch(workId, { track: await studioGet<CaptionTrack | null>(CAPTION_API.get, { workId }, { quiet: true }) });
  } catch (e) {
    patch(workId, { error: (e as Error).message });
  } finally {
    patch(workId, { busy: false });
  }
}

/** Runs one change; the answer replaces the track, a refusal is kept for the editor to show. True when it went through. */
async function change(workId: number, run: () => Promise<CaptionTrack | null>): Promise<boolean> {
  patch(workId, { busy: true, error: null });
  try {
    patch(workId, { track: await run() });
    return true;
  } catch (e) {
    patch(workId, { error: (e as Error).message });
    return false;
  } finally {
    patch(workId, { busy: false });
  }
}

/** Uploads a .vtt or .srt file as the work's captions (replacing any). */
export function uploadCaptionFile(workId: number, file: File): Promise<boolean> {
  return change(workId, async () => {
    const { apiPostMultipart } = await import('./api.ts');
    const body = new FormData();
    body.set('workId', String(workId));
    body.set('file', file, file.name);
    const answer = await apiPostMultipart<{ data: CaptionTrack }>(CAPTION_API.upload.replace(/^\/api/, ''), body, {
      quiet: true,
    });
    return answer.data;
  });
}

/** Changes the text of cue `index`. */
export function saveCue(workId: number, index: number, text: string): Promise<boolean> {
  return change(workId, () => studioPost<CaptionTrack>(CAPTION_API.editCue, { workId, index, text }, { quiet: true }));
}

/** Removes the work's captions. */
export function removeCaptionTrack(workId: number): Promise<boolean> {
  return change(workId, async () => {
    await studioPost<{ workId: number }>(CAPTION_API.remove, { workId }, { quiet: true });
    return null;
  });
}
