/** The eight channels' ids, in the order the pages list them. */
export const CHANNEL_IDS = [300201, 300203, 300204, 300205, 300206, 300207, 300208, 300209] as const;

/** Whether `id` is one of the eight channels. */
export function isChannel(id: number): boolean {
  return (CHANNEL_IDS as readonly number[]).includes(id);
}
