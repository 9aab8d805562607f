/**
 * What a member meant by a click on ♥, 收藏 or 稍后再看 made before the island hydrated: the state the button showed
 * then, turned. The click is replayed once the island is up (client:interact), by which time the viewer's marks may
 * have arrived and pressed the button; judged against them, the replay would toggle the wrong way (a like taken back
 * by a click that meant to like). The action takes the intent recorded at the click instead (video-actions.ts).
 */

export type MarkKind = 'like' | 'collect' | 'later';

const intents = new Map<string, boolean>();

/** Records that a click on `kind` of video `id` meant to turn it `on`. */
export function recordIntent(kind: MarkKind, id: string, on: boolean): void {
  intents.set(`${kind}:${id}`, on);
}

/** The end state a click not yet acted on meant for `kind` of video `id`, once; undefined when there is none. */
export function takeIntent(kind: MarkKind, id: string): boolean | undefined {
  const key = `${kind}:${id}`;
  const on = intents.get(key);
  intents.delete(key);
  return on;
}
