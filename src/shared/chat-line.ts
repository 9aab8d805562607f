/** A live room's chat line as its API answers it and the live room island renders it. */
export interface ChatLine {
  id: string;
  roomId: string;
  text: string;
  /** Unix milliseconds. */
  createTime: number;
  user: { secUid: string; nickname: string; avatar: string };
}

/** Longest chat line in code points (the server's MAX_CHAT). */
export const CHAT_MAX = 100;
