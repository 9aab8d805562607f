/**
 * The account as its member controls it: 下载我的数据 (a ZIP of their data) and 注销账号 (deletion after a cooling-off).
 * The API's paths and answers as the settings page and the server both see them. Browser-safe: no imports.
 */

/** Days between asking to delete the account and its deletion; logging in during them cancels it. */
export const COOLING_OFF_DAYS = 15;
/** Hours a data export may be downloaded once it is ready. */
export const EXPORT_VALID_HOURS = 24;

/** The account API under /api (Family B envelope). */
export const ACCOUNT_API = {
  /** GET → AccountState. */
  state: '/api/account/state',
  /** POST → DataExportView: starts building a new export. */
  exportStart: '/api/account/export',
  /** GET ?id= → the ZIP (application/zip), for its owner only; 404 for anyone else or once expired. */
  exportDownload: '/api/account/export/download',
  /** POST → {sent: true}: mails a code to the account's address, to confirm the deletion with. */
  deleteCode: '/api/account/delete/code',
  /** POST {password} or {code} → {dueTime}: starts the cooling-off and logs out everywhere. */
  deleteStart: '/api/account/delete',
} as const;

/** Where the export `id` is downloaded (the notification's link). */
export const exportDownloadPath = (id: number) => `${ACCOUNT_API.exportDownload}?id=${id}`;

/** A data export as the settings page shows it. */
export interface DataExportView {
  id: number;
  status: 'pending' | 'ready' | 'failed';
  sizeBytes: number | null;
  /** Unix milliseconds after which it can no longer be downloaded (ready only). */
  expireTime: number | null;
  /** The download link (ready only). */
  url: string | null;
}

/** What the settings page's 账号与数据 section shows. */
export interface AccountState {
  /** The newest export not yet expired, if any. */
  export: DataExportView | null;
  /** The account's address (masked), where a deletion code goes; null when it has none. */
  email: string | null;
  hasPassword: boolean;
}
