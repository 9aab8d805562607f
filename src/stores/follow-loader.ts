/** The follow store loads on first use, not with the player: these say when it has. */
import { atom } from 'nanostores';

/** Whether the follow store has loaded: from then on every follow control on the page shows the shared FollowButton. */
export const $followLoaded = atom(false);

/** The follow store (with the API client), loaded on first use. */
export function loadFollow(): Promise<typeof import('./follow.ts')> {
  return import('./follow.ts').then((m) => {
    $followLoaded.set(true);
    return m;
  });
}
