/** An in-memory Web Storage for unit tests of browser modules (Node has no localStorage or sessionStorage). */
export class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  /** When set, setItem throws like a full or blocked storage. */
  failWrites = false;

  get length(): number {
    return this.data.size;
  }
  clear(): void {
    this.data.clear();
  }
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.data.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
  setItem(key: string, value: string): void {
    if (this.failWrites) throw new DOMException('full', 'QuotaExceededError');
    this.data.set(key, String(value));
  }
  /** Every entry, for assertions. */
  entries(): Record<string, string> {
    return Object.fromEntries(this.data);
  }
}

/** Puts fresh localStorage and sessionStorage on globalThis and returns them. */
export function installStorages(): { local: MemoryStorage; session: MemoryStorage } {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  Object.defineProperty(globalThis, 'localStorage', { value: local, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'sessionStorage', { value: session, configurable: true, writable: true });
  return { local, session };
}
