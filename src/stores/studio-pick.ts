/**
 * The video the creator picked or dropped on /post, handed from the page's small script to the island: the drop zone
 * works before React has loaded (a native file input in a label), and the island, woken by the pick, takes the file.
 */
import { atom } from 'nanostores';

/** A picked or dropped file not yet taken by the island. */
export const $pickedFile = atom<File | null>(null);

/** Our tus fingerprints begin with this (then the account, the kind and the file's signature). */
export const FINGERPRINT_ROOT = 'studio/';
/** tus-js-client keeps each resumable upload in localStorage as `tus::<fingerprint>::<n>`. */
export const RESUMABLE_KEY = `tus::${FINGERPRINT_ROOT}`;

/** The island's client:interact event on /post and /post/manage. */
export const STUDIO_WAKE_EVENT = 'sy:hydrate-studio';

/** Whether this browser holds an unfinished studio upload (then the page wakes its island at once to offer it). */
export function hasResumableUploads(storage: Pick<Storage, 'length' | 'key'> | null): boolean {
  if (!storage) return false;
  for (let i = 0; i < storage.length; i++) if (storage.key(i)?.startsWith(RESUMABLE_KEY)) return true;
  return false;
}

/** Hands a picked file to the island and wakes it. */
export function pickFile(file: File | null | undefined): void {
  if (!file) return;
  $pickedFile.set(file);
  globalThis.dispatchEvent?.(new Event(STUDIO_WAKE_EVENT));
}
