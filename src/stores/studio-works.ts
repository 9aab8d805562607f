/** 视频管理: my works page by page (newest first), their edits and deletions, and processing works followed until done. */
import { STUDIO_API, type EditWorkInput, type StudioWork, type StudioWorkPage } from '../shared/studio.ts';
import { pagedList } from './paged-list.ts';
import { studioGet, studioPost } from './studio-api.ts';

/** How often works still processing are asked for their state. */
export const WORK_POLL_MS = 3000;

const list = pagedList<StudioWork>({
  keyOf: (w) => String(w.id),
  // No size: pages come in the server's default size, the one /post/manage renders its first page in.
  fetchPage: (cursor) => studioGet<StudioWorkPage>(STUDIO_API.works, { cursor }),
});

/** My works as listed so far. */
export const $works = list.$items;
export const $worksState = list.$state;
/** Loads the first page again (reset) or the next one. */
export const loadWorks = list.load;

/** Takes the first page the server rendered, so the list starts without a request. */
export function seedWorks(page: StudioWorkPage): void {
  if ($worksState.get().loaded) return;
  // The list's seen set learns the server's rows too, so a next page that overlaps them adds no duplicate.
  list.skip(page.items.map((w) => String(w.id)));
  $works.set(page.items);
  $worksState.set({ loading: false, loaded: true, hasMore: page.hasMore, cursor: page.cursor, error: false });
}

function replace(work: StudioWork): void {
  $works.set($works.get().map((w) => (w.id === work.id ? work : w)));
}

/** Asks for one work again (its status, cover, counts) and puts the answer in the list. */
export async function refreshWork(workId: number): Promise<StudioWork> {
  const work = await studioGet<StudioWork>(STUDIO_API.work, { workId }, { quiet: true });
  replace(work);
  return work;
}

/** Saves changed fields of a work; rejects with the server's message (ApiFailure) for the dialog to show. */
export async function saveWork(input: EditWorkInput): Promise<StudioWork> {
  const work = await studioPost<StudioWork>(STUDIO_API.edit, { ...input }, { quiet: true });
  replace(work);
  return work;
}

/** Deletes a work; it leaves the list once the server confirms. */
export async function deleteWork(workId: number): Promise<void> {
  await studioPost<{ workId: number }>(STUDIO_API.remove, { workId }, { quiet: true });
  // The cursor names the last work loaded, not a count of rows: removing one moves nothing.
  $works.set($works.get().filter((w) => w.id !== workId));
}

/** Follows works still processing until each is published or refused; returns a function that stops. */
export function watchProcessing(intervalMs = WORK_POLL_MS): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = async () => {
    const processing = $works.get().filter((w) => w.status === 'processing');
    await Promise.all(processing.map((w) => refreshWork(w.id).catch(() => null)));
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
