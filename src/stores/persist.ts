import type { WritableAtom } from 'nanostores';

/** A store that names itself: `persist()` uses the id as its default storage key. */
export type IdentifiedStore<T> = WritableAtom<T> & { id?: string };

export interface PersistOptions {
  /** Storage key; defaults to the store's `id`. */
  key?: string;
  /** Where to keep it; defaults to sessionStorage. `null` (no storage here, e.g. on the server) disables persistence. */
  storage?: Storage | null;
  /** Dotted paths to keep (`['token', 'userInfo.nickname']`); the whole state when absent. */
  paths?: string[];
}

/** The browser's localStorage or sessionStorage, or null where there is none or it is blocked (server, sandboxed frame). */
export function browserStorage(kind: 'local' | 'session'): Storage | null {
  try {
    const storage = kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    return storage ?? null;
  } catch {
    return null;
  }
}

/** Gives a store the id that `persist()` keys it by. */
export function withId<S extends object>(id: string, store: S): S & { id: string } {
  return Object.assign(store, { id });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

function getPath(source: unknown, path: string[]): { found: boolean; value?: unknown } {
  let node = source;
  for (const part of path) {
    if (!isPlainObject(node) || !(part in node)) return { found: false };
    node = node[part];
  }
  return { found: true, value: node };
}

/** A copy of `target` with `value` at `path`, creating plain objects on the way. */
function setPath(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const base = isPlainObject(target) ? target : {};
  return { ...base, [head]: setPath(base[head], rest, value) };
}

/** Only the chosen paths of a state, nested as in the state. */
export function pickPaths(state: unknown, paths: string[]): Record<string, unknown> {
  let out: unknown = {};
  for (const path of paths) {
    const parts = path.split('.');
    const { found, value } = getPath(state, parts);
    if (found) out = setPath(out, parts, value);
  }
  return out as Record<string, unknown>;
}

/** The saved state laid over the current one: saved paths only, or the saved whole (merged into objects so new fields keep their defaults). */
function restore<T>(current: T, saved: unknown, paths: string[] | undefined): T {
  if (paths) {
    let next: unknown = current;
    for (const path of paths) {
      const parts = path.split('.');
      const { found, value } = getPath(saved, parts);
      if (found) next = setPath(next, parts, value);
    }
    return next as T;
  }
  if (isPlainObject(current) && isPlainObject(saved)) return { ...current, ...saved } as T;
  return saved as T;
}

/**
 * Keeps a store in storage: reads the saved state at once, then writes after each change.
 * Bad JSON, a missing or full storage are ignored: the store just stays in memory. Returns a function that stops writing.
 */
export function persist<T>(store: IdentifiedStore<T>, options: PersistOptions = {}): () => void {
  const key = options.key ?? store.id;
  if (!key) throw new TypeError('persist() needs options.key or a store with an id');
  const storage = options.storage === undefined ? browserStorage('session') : options.storage;
  if (!storage) return () => {};
  const { paths } = options;

  try {
    const raw = storage.getItem(key);
    if (raw !== null) store.set(restore(store.get(), JSON.parse(raw), paths));
  } catch {
    // Unreadable or foreign data: start from the store's own state and overwrite it on the next change.
  }

  return store.listen((value) => {
    try {
      storage.setItem(key, JSON.stringify(paths ? pickPaths(value, paths) : value));
    } catch {
      // Quota exceeded or storage blocked: the in-memory state still holds.
    }
  });
}
