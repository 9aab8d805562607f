/** The sec_uid format (a user's public id in URLs and the API), one check for every door that takes one, and the 闪映号 made of it. */

/** Longest sec_uid accepted; sign-up and the seed make 52 characters. */
export const SEC_UID_MAX = 100;

/** Letters, digits, '-' and '_', as sign-up and the seed make them. */
export const SEC_UID = new RegExp(String.raw`^[\w-]{1,${SEC_UID_MAX}}$`);

/** A user's 闪映号 (Douyin's unique_id): the last ten characters of their sec_uid. */
export function shanyingId(secUid: string): string {
  return secUid.slice(-10);
}

/** Whether `value` can be a sec_uid (a lookup may still find nobody). */
export function isSecUid(value: string): boolean {
  return SEC_UID.test(value);
}
