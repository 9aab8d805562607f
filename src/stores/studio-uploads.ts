/**
 * The studio's uploads: tus transfers (resumable across reloads, retried when the connection drops, cancellable), then
 * the server's checks and processing, polled until the upload is ready or refused. tus-js-client loads with the first
 * file, not with the page.
 */
import { atom, map } from 'nanostores';
import type { DetailedError, PreviousUpload, Upload, UploadOptions } from 'tus-js-client';
import { t } from '../i18n/t.ts';
import { STUDIO_API, TUS_ENDPOINT, type UploadKind, type UploadView } from '../shared/studio.ts';
import { $user } from './session.ts';
import { browserStorage } from './persist.ts';
import { FINGERPRINT_ROOT, hasResumableUploads, RESUMABLE_KEY } from './studio-pick.ts';
import { studioGet } from './studio-api.ts';
import { addSample, rateOf, secondsLeft, type RateSample } from './upload-rate.ts';

/**
 * Where an upload stands here: bytes going out (or waiting to retry after a dropped connection), stopped by an error
 * (a retry continues from the server's offset), then the server's verdict: 处理中, ready, or 未通过.
 */
export type UploadPhase = 'uploading' | 'retrying' | 'failed' | 'processing' | 'ready' | 'rejected';

export interface UploadEntry {
  /** This page's key for the upload (not the server's id). */
  key: string;
  kind: UploadKind;
  fileName: string;
  size: number;
  /** Bytes the server has confirmed or that are on their way. */
  sent: number;
  /** Bytes per second over the last seconds (0 while unknown). */
  speed: number;
  secondsLeft: number | null;
  phase: UploadPhase;
  /** The tus upload id once the server made it. */
  uploadId: string | null;
  /** True when it continued an upload of the same file that an earlier visit started. */
  resumed: boolean;
  /** Why it failed or was refused: the server's message, or the network's. */
  error: string | null;
  /** The server's view, once polled. */
  view: UploadView | null;
}

/**
 * An upload that an earlier visit left unfinished: choosing the same file again continues it, unless the server has
 * ended it meanwhile (swept after a day without a byte, refused, gone), which the studio says until it is dismissed.
 */
export interface PendingUpload {
  storageKey: string;
  uploadId: string;
  fileName: string;
  size: number;
  /** Bytes the server holds, when it could be asked. */
  received: number | null;
  createdAt: string;
  /** Why the server ended it, in the server's words; null while it can be continued. */
  reason: string | null;
}

/** The page's uploads by key. */
export const $uploads = map<Record<string, UploadEntry>>({});
/** Unfinished uploads of this account from earlier visits (null until read). */
export const $pendingUploads = atom<PendingUpload[] | null>(null);

/** Waits between attempts after a dropped connection; progress resets the count, so a long upload survives many drops. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];
/** How often a processing upload is asked for its state. */
export const POLL_MS = 1500;
/**
 * Bytes per PATCH: each chunk is a request that can fail and be retried on its own, and its confirmed offset is where
 * a reload continues.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024;

interface Transfer {
  upload: Upload | null;
  samples: RateSample[];
  poll: ReturnType<typeof setTimeout> | null;
  cancelled: boolean;
}

const transfers = new Map<string, Transfer>();
let counter = 0;

const loadTus = () => import('tus-js-client');

function patch(key: string, change: Partial<UploadEntry>): void {
  const entry = $uploads.get()[key];
  if (entry) $uploads.setKey(key, { ...entry, ...change });
}

/** This account's fingerprints begin with this, so another account on the same browser never resumes them. */
function fingerprintPrefix(kind: UploadKind): string {
  return `${FINGERPRINT_ROOT}${$user.get().userInfo?.uid ?? 'anon'}/${kind}/`;
}

function authHeaders(): Record<string, string> {
  const token = $user.get().token;
  return token ? { Token: token } : {};
}

/** The upload id in a tus URL (its last path segment). */
export function uploadIdOf(url: string | null | undefined): string | null {
  const id = url?.split('?')[0]?.split('/').filter(Boolean).at(-1);
  return id ?? null;
}

/** The message of a refused or failed request: the Family B envelope's msg, else the network's. */
export function failureMessage(error: Error | DetailedError): string {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (response) {
    try {
      const body = JSON.parse(response.getBody()) as { msg?: unknown };
      if (typeof body.msg === 'string' && body.msg) return body.msg;
    } catch {
      // Not the server's envelope (a proxy's page): the generic message below.
    }
    return t('toast.failed');
  }
  return t('toast.network');
}

/** Whether a failed request is worth trying again: no answer at all, a server error, or a conflict tus resolves. */
export function shouldRetry(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

/** Points the upload at the newest unfinished upload of the same file from an earlier visit, if there is one. */
async function resumeEarlier(upload: Upload): Promise<boolean> {
  const previous = await upload.findPreviousUploads().catch(() => [] as PreviousUpload[]);
  const newest = [...previous].sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
  if (!newest) return false;
  upload.resumeFromPreviousUpload(newest);
  return true;
}

/** Starts uploading `file` as `kind` and answers its key in `$uploads` at once (the transfer starts when tus has loaded). */
export function startUpload(file: File, kind: UploadKind): string {
  const key = `${kind}-${++counter}`;
  $uploads.setKey(key, {
    key,
    kind,
    fileName: file.name,
    size: file.size,
    sent: 0,
    speed: 0,
    secondsLeft: null,
    phase: 'uploading',
    uploadId: null,
    resumed: false,
    error: null,
    view: null,
  });
  const transfer: Transfer = { upload: null, samples: [], poll: null, cancelled: false };
  transfers.set(key, transfer);
  void begin(key, transfer, file, kind).catch((error: Error) => {
    if (!transfer.cancelled) patch(key, { phase: 'failed', error: failureMessage(error) });
  });
  return key;
}

async function begin(key: string, transfer: Transfer, file: File, kind: UploadKind): Promise<void> {
  const tus = await loadTus();
  if (transfer.cancelled) return;
  const prefix = fingerprintPrefix(kind);
  const options: UploadOptions = {
    endpoint: TUS_ENDPOINT,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS,
    headers: authHeaders(),
    metadata: { filename: file.name, filetype: file.type, kind },
    fingerprint: async (f: File) => `${prefix}${[f.name, f.type, f.size, f.lastModified].join('/')}`,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => {
      transfer.samples = addSample(transfer.samples, { at: Date.now(), bytes: sent });
      const speed = rateOf(transfer.samples);
      patch(key, { sent, speed, secondsLeft: secondsLeft(sent, total, speed), phase: 'uploading', error: null });
    },
    onUploadUrlAvailable: () => patch(key, { uploadId: uploadIdOf(transfer.upload?.url) }),
    onShouldRetry: (error) => {
      const retry = shouldRetry(error);
      if (retry) {
        transfer.samples = [];
        patch(key, { phase: 'retrying', speed: 0, secondsLeft: null });
      }
      return retry;
    },
    onError: (error) => {
      if (transfer.cancelled) return;
      const status = 'originalResponse' in error ? (error.originalResponse?.getStatus() ?? 0) : 0;
      // The server refused the file itself (its content, its size): sending it again cannot help.
      const refused = status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429;
      patch(key, { phase: refused ? 'rejected' : 'failed', error: failureMessage(error), speed: 0, secondsLeft: null });
    },
    onSuccess: () => {
      patch(key, {
        sent: file.size,
        speed: 0,
        secondsLeft: 0,
        phase: kind === 'cover' ? 'ready' : 'processing',
        uploadId: uploadIdOf(transfer.upload?.url),
      });
      if (kind === 'video') void pollUpload(key);
    },
  };
  const upload = new tus.Upload(file, options);
  transfer.upload = upload;
  const resumed = await resumeEarlier(upload);
  if (transfer.cancelled) return;
  patch(key, { resumed });
  upload.start();
}

/** Continues a failed transfer from the server's offset. */
export function retryUpload(key: string): void {
  const transfer = transfers.get(key);
  if (!transfer?.upload || $uploads.get()[key]?.phase !== 'failed') return;
  transfer.samples = [];
  patch(key, { phase: 'uploading', error: null });
  transfer.upload.start();
}

/** Asks the server for an upload's state, again every POLL_MS while it is being processed. */
export async function pollUpload(key: string): Promise<void> {
  const transfer = transfers.get(key);
  const entry = $uploads.get()[key];
  if (!transfer || transfer.cancelled || !entry?.uploadId) return;
  try {
    const view = await studioGet<UploadView>(STUDIO_API.upload, { uploadId: entry.uploadId }, { quiet: true });
    if (transfer.cancelled) return;
    const phase: UploadPhase =
      view.status === 'rejected' ? 'rejected' : view.status === 'ready' ? 'ready' : 'processing';
    patch(key, { view, phase, error: view.status === 'rejected' ? (view.reason ?? t('studio.upload.refused')) : null });
    if (phase !== 'processing') return;
  } catch {
    // A dropped poll is asked again below.
  }
  transfer.poll = setTimeout(() => void pollUpload(key), POLL_MS);
}

/** Stops an upload: a transfer is aborted and the server told to delete what it holds; the entry leaves the page. */
export async function cancelUpload(key: string): Promise<void> {
  const transfer = transfers.get(key);
  const entry = $uploads.get()[key];
  transfers.delete(key);
  $uploads.setKey(key, undefined);
  if (!transfer) return;
  transfer.cancelled = true;
  if (transfer.poll) clearTimeout(transfer.poll);
  const transferring = entry && (entry.phase === 'uploading' || entry.phase === 'retrying' || entry.phase === 'failed');
  // Terminating also forgets the file's fingerprint, so choosing it again starts afresh.
  await transfer.upload?.abort(!!transferring && !!transfer.upload.url).catch(() => {});
}

/** Whether any transfer of this page is still sending bytes (leaving the page would stop it). */
export function isTransferring(): boolean {
  return Object.values($uploads.get()).some((u) => u.phase === 'uploading' || u.phase === 'retrying');
}

/** Reads this account's unfinished video uploads from earlier visits, with how much the server holds of each. */
export async function loadPendingUploads(): Promise<PendingUpload[]> {
  // Nothing stored: no need for tus-js-client yet.
  if (!hasResumableUploads(browserStorage('local'))) {
    $pendingUploads.set([]);
    return [];
  }
  const tus = await loadTus();
  const storage = tus.defaultOptions.urlStorage;
  const prefix = `${RESUMABLE_KEY}${fingerprintPrefix('video').slice(FINGERPRINT_ROOT.length)}`;
  const active = new Set(Object.values($uploads.get()).map((u) => u.uploadId));
  const entries = (await storage.findAllUploads()).filter((p) => p.urlStorageKey.startsWith(prefix) && p.uploadUrl);
  const found: PendingUpload[] = [];
  for (const p of entries) {
    const uploadId = uploadIdOf(p.uploadUrl);
    if (!uploadId || active.has(uploadId)) continue;
    let received: number | null = null;
    let reason: string | null = null;
    try {
      const view = await studioGet<UploadView>(STUDIO_API.upload, { uploadId }, { quiet: true });
      if (view.status === 'rejected') {
        reason = view.reason ?? t('studio.upload.refused');
      } else if (view.status !== 'uploading' || view.receivedBytes >= view.sizeBytes) {
        // Finished since, or all bytes in and being checked (its status turns a moment after the last byte): nothing
        // to continue, nothing to say.
        await storage.removeUpload(p.urlStorageKey);
        continue;
      } else {
        received = view.receivedBytes;
      }
    } catch (error) {
      // Gone altogether: the words the server answers that with.
      if ((error as { status?: number }).status === 404) reason = t('error.uploadNotFound');
      // Otherwise the server could not be asked: listed as it was, without its progress.
    }
    const fileName = p.metadata.filename ?? uploadId;
    found.push({
      storageKey: p.urlStorageKey,
      uploadId,
      fileName,
      size: p.size ?? 0,
      received,
      createdAt: p.creationTime,
      reason,
    });
  }
  found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  $pendingUploads.set(found);
  return found;
}

/**
 * Gives up an unfinished upload from an earlier visit, or dismisses one the server ended: the server deletes what it
 * still holds and this browser forgets it.
 */
export async function discardPendingUpload(storageKey: string): Promise<void> {
  const pending = $pendingUploads.get() ?? [];
  const item = pending.find((p) => p.storageKey === storageKey);
  $pendingUploads.set(pending.filter((p) => p.storageKey !== storageKey));
  const tus = await loadTus();
  if (item && item.reason === null)
    await tus.Upload.terminate(`${TUS_ENDPOINT}/${item.uploadId}`, { headers: authHeaders() }).catch(() => {});
  await tus.defaultOptions.urlStorage.removeUpload(storageKey);
}
