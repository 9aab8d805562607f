/** A live room's real-time events (state, 点赞), re-dispatched on the document by live-room.ts for the other parts. */
export const LIVE_EVENT = 'sy:live';

export interface LiveEventDetail {
  type: string;
  data: unknown;
}
