/** The sec_uid format (a user's public id in URLs and the API), one check for every door that takes one. */

/** Longest sec_uid accepted; sign-up and the seed make 52 characters. */
export const SEC_UID_MAX = 100;

/** Letters, digits, '-' and '_', as sign-up and the seed make them. */
export const SEC_UID = new RegExp(String.raw`^[\w-]{1,${SEC_UID_MAX}}$`);

/** Whether `value` can be a sec_uid (a lookup may still find nobody). */
export function isSecUid(value: string): boolean {
  return SEC_UID.test(value);
}
