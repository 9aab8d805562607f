/** 账号与数据 on the settings page: the data export's state and actions, and 注销账号. */
import { atom } from 'nanostores';
import { ACCOUNT_API, type AccountState, type DataExportView } from '../shared/account.ts';
import { studioGet, studioPost } from './studio-api.ts';

/** How often an export being built is asked for its state. */
export const EXPORT_POLL_MS = 3000;

/** The newest export not expired, null when none, undefined until known. */
export const $dataExport = atom<DataExportView | null | undefined>(undefined);

/** Reads the account's state (the page's first render passes it instead). */
export async function loadAccountState(): Promise<AccountState> {
  const state = await studioGet<AccountState>(ACCOUNT_API.state, {}, { quiet: true });
  $dataExport.set(state.export);
  return state;
}

/** Starts a new export; rejects with the server's message (one already being built, the daily limit). */
export async function startExport(): Promise<void> {
  $dataExport.set(await studioPost<DataExportView>(ACCOUNT_API.exportStart, {}, { quiet: true }));
}

/** Follows an export being built until it is ready or failed; returns a function that stops. */
export function watchExport(intervalMs = EXPORT_POLL_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    if ($dataExport.get()?.status === 'pending') await loadAccountState().catch(() => null);
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Mails a confirmation code to the account's address; answers the masked address. */
export async function sendDeleteCode(): Promise<string> {
  return (await studioPost<{ email: string }>(ACCOUNT_API.deleteCode, {}, { quiet: true })).email;
}

/** Asks for the account's deletion with the password or a mailed code; answers when it will happen (Unix ms). */
export async function requestAccountDeletion(proof: { password?: string; code?: string }): Promise<number> {
  return (await studioPost<{ dueTime: number }>(ACCOUNT_API.deleteStart, proof, { quiet: true })).dueTime;
}
